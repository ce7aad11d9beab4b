#!/usr/bin/env python3
"""Holds 118: slow client with hover (protocol.md "Hover events", "Slow clients"): a client that
pauses gets merged hover motions ("merged": n) and merged moves, never merged proximityIn/Out,
began or ended; hover proximity pairing stays consistent per device/slot; hover takes no seq, so
last seq - snapshot seq == stream messages + sum(merged of stroke moves) still holds.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


EV = ['began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved', 'hover']

def main():
    d = Daemon('18-wacom-dth2242-pen-buttons.evemu', loop=True, speed=20)
    try:
        s = Conn(d.sock, rcvbuf=2048)
        s.req('subscribe', events=EV)
        ss = s.next(5)
        time.sleep(5)
        S = s.drain(3)
        s.send({'id': 'u', 'request': 'unsubscribe'})
        S += s.drain(5, stop=lambda m: m.get('id') == 'u')
        S = S[:-1]
        hm = [m for m in S if m['type'] == 'hover' and 'merged' in m]
        check(hm and all(m['phase'] == 'motion' for m in hm), 'merged hovers are motions (%d)' % len(hm))
        check(not any('merged' in m for m in S if m['type'] in ('began', 'ended', 'cancelled')), 'began/ended never merged')
        check(not any('seq' in m for m in S if m['type'] == 'hover'), 'hover has no seq')
        near, bad = set(), 0
        for m in S:
            if m['type'] == 'hover':
                k = (m['device'], m['slot'])
                if m['phase'] == 'proximityIn':
                    bad += k in near
                    near.add(k)
                elif m['phase'] == 'proximityOut':
                    bad += k not in near
                    near.discard(k)
                else:
                    near.add(k)
        check(bad == 0, 'proximity pairing consistent')
        st = [m for m in S if 'seq' in m]
        check(st[-1]['seq'] - ss['seq'] == len(st) + sum(m.get('merged', 0) for m in st), 'seq accounting with hover interleaved')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
