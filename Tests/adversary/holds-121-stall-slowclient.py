#!/usr/bin/env python3
"""Holds 114: a client that reads nothing while messages wait is disconnected after
queue.disconnectAfterSeconds (configured 1 s here) with goodbye slowClient, counted in
stats slowClientsDisconnected; a subscribe whose resumed messages do not fit the queue limits is
answered by goodbye slowClient alone (no reply); other clients are unaffected.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=True, speed=4,
               config='queue:\n  disconnectAfterSeconds: 1\n  disconnectAfterBytes: 262144\n')
    try:
        ok = Conn(d.sock)
        ok.req('subscribe')
        ok.next(5)
        s = Conn(d.sock, rcvbuf=1024)
        s.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        s.req('subscribe')
        t0 = time.time()
        got = ok.drain(3.5)
        cut_early = ok.req('stats')['daemon']['slowClientsDisconnected']
        seqs = [m['seq'] for m in got if 'seq' in m]
        check(all(b - a == 1 for a, b in zip(seqs, seqs[1:])) and len(seqs) > 100, 'good client unaffected')
        rest = s.drain(5)
        print('slowClientsDisconnected 3.5 s after subscribing:', cut_early, rest[-1:])
        check(rest and rest[-1] == {'type': 'goodbye', 'reason': 'slowClient'} and s.read(3) == {'type': 'EOF'},
              'stalled client: goodbye slowClient, close')
        check(cut_early >= 1, 'cut within 3.5 s: disconnectAfterSeconds (1 s) + 2 s grace')
        st = ok.req('stats')
        check(st['daemon']['slowClientsDisconnected'] >= 1, 'slowClientsDisconnected counted')
        L = st['daemon']['seq']
        r = Conn(d.sock, rcvbuf=1024)
        r.send({'id': 1, 'request': 'subscribe', 'resumeAfter': L - 1000})
        m = r.read(5)
        check(m == {'type': 'goodbye', 'reason': 'slowClient'}, 'oversized resume: goodbye slowClient alone (got %r)' % m)
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
