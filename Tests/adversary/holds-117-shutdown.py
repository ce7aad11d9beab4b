#!/usr/bin/env python3
"""Holds 110: shutdown (protocol.md "Session" 3): on SIGTERM every live stroke is cancelled with
reason shutdown before goodbye shutdown; an unsubscribed client gets goodbye shutdown; then EOF.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=True, speed=2)
    try:
        a = Conn(d.sock)
        a.req('subscribe', events=['began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved', 'gesture', 'hover'])
        live = {x['stroke'] for x in a.next(5)['strokes']}
        b = Conn(d.sock)
        end = time.time() + 2
        while time.time() < end or not live:
            m = a.next(1)
            if m and m['type'] == 'began':
                live.add(m['stroke'])
            elif m and m['type'] in ('ended', 'cancelled'):
                live.discard(m['stroke'])
            if time.time() > end + 10:
                break
        before = set(live)
        d.proc.send_signal(signal.SIGTERM)
        tail = a.drain(5)
        gone = set()
        for m in tail:
            if m['type'] in ('ended', 'cancelled'):
                live.discard(m['stroke'])
                if m['type'] == 'cancelled':
                    check(m.get('reason') == 'shutdown', 'cancel reason shutdown')
                    gone.add(m['stroke'])
            elif m['type'] == 'began':
                live.add(m['stroke'])
        types = [m['type'] for m in tail]
        print('live at SIGTERM', sorted(before), 'tail', types[-6:])
        check(not live, 'every live stroke ended/cancelled before goodbye')
        check('goodbye' in types and tail[types.index('goodbye')] == {'type': 'goodbye', 'reason': 'shutdown'}, 'goodbye shutdown')
        check(types[-1] == 'goodbye' and a.read(3) == {'type': 'EOF'}, 'goodbye last, then close')
        check(b.read(5) == {'type': 'goodbye', 'reason': 'shutdown'}, 'unsubscribed client: goodbye shutdown')
        d.proc.wait(5)
        check(not os.path.exists(d.sock), 'socket file removed')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
