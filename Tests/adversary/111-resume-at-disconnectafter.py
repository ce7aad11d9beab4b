#!/usr/bin/env python3
"""Finding 111: a resume of exactly queue.disconnectAfter messages is cut (slowClient) although the
doc only cuts clients "past" that many queued messages.

Kind: binary vs doc off-by-one (or doc incomplete: the reply seems to be counted).
Doc (protocol.md, "Slow clients"): "Past queue.disconnectAfter queued messages ... the client is
disconnected"; "Subscribing ... resuming": "what does not fit the client's queue limits (below)
disconnects it (slowClient)".
Binary (queue.disconnectAfter: 200, mergeAfter: 50): resumeAfter = last-199 (199 messages)
is resumed; resumeAfter = last-200 (exactly 200 messages, not past the limit) is answered by
goodbye slowClient alone. Presumably the reply is counted as a queued message; the doc does
not say so, so a client sizing its resume window from disconnectAfter is off by one.
Severity: low (only with non-default configs where resume >= disconnectAfter).
Fix: say "at most disconnectAfter - 1 messages, the reply included" or count only stream messages.
Exit 1 when exactly disconnectAfter resumed messages disconnect the client.

Now documented: the reply is queued with the resumed messages, so at most disconnectAfter - 1 fit. This script checks that behaviour.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


CFG = 'queue:\n  mergeAfter: 50\n  disconnectAfter: 200\n'

def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=False, speed=0, config=CFG)
    try:
        time.sleep(1.5)
        c = Conn(d.sock)
        last = c.hello['seq']
        c.close()
        res = {}
        for k in (199, 200):
            c = Conn(d.sock, rcvbuf=2048)
            c.send({'id': 1, 'request': 'subscribe', 'resumeAfter': last - k})
            time.sleep(0.5)
            msgs = c.drain(3, stop=lambda m: m['type'] != 'reply' and m.get('seq') == last)
            res[k] = msgs
            print(k, 'messages to resume ->', len(msgs), 'first', msgs[0] if msgs else None,
                  'last type', msgs[-1]['type'] if msgs else None)
            c.close()
        check(res[199] and res[199][0].get('resumed') is True, 'resume of 199 messages (limit 200) served')
        # Documented since: the reply is queued with the resumed messages, so at most
        # disconnectAfter - 1 of them fit; more is a goodbye slowClient alone.
        check(res[200] and res[200][0].get('type') == 'goodbye' and res[200][0].get('reason') == 'slowClient',
              'resume of disconnectAfter (200) messages: goodbye slowClient, as documented')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
