#!/usr/bin/env python3
"""Holds 109: resumeAfter (protocol.md "Subscribing, snapshots and resuming"): with the default
resume window of 4096, resumeAfter = last-4096 is resumed (4096 messages, none merged even with a
tiny receive buffer), last-4097 and a future seq get gapTooOld + snapshot; resumeAfter = last
gives resumed:true and nothing; on an already subscribed connection resumeAfter sends the held
messages after S again.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=False, speed=0)
    try:
        time.sleep(1.5)
        c = Conn(d.sock)
        L = c.hello['seq']
        c.close()
        check(L > 4200, 'enough messages (%d)' % L)
        for back, ok in [(4096, True), (4097, False), (0, True), (-5, False)]:
            c = Conn(d.sock, rcvbuf=4096)
            r = c.req('subscribe', resumeAfter=L - back)
            time.sleep(0.5)
            msgs = c.drain(3, stop=lambda m: m.get('seq') == L)
            c.close()
            if ok:
                check(r.get('resumed') is True and len(msgs) == back and not any('merged' in m for m in msgs)
                      and (back == 0 or [m['seq'] for m in msgs] == list(range(L - back + 1, L + 1))),
                      'resumeAfter last-%d: resumed, %d unmerged messages' % (back, len(msgs)))
            else:
                check(r.get('resumed') is False and r.get('reason') == 'gapTooOld' and msgs and
                      msgs[0]['type'] == 'snapshot' and msgs[0]['seq'] == L, 'resumeAfter last-%d: gapTooOld + snapshot' % back)
        c = Conn(d.sock)
        c.req('subscribe', resumeAfter=L - 10)
        first = c.drain(2, stop=lambda m: m.get('seq') == L)
        c.req('subscribe', resumeAfter=L - 5)
        again = c.drain(2, stop=lambda m: m.get('seq') == L)
        check([m['seq'] for m in again] == list(range(L - 4, L + 1)), 'resume on a subscribed connection re-sends after S')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
