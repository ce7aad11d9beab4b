#!/usr/bin/env python3
"""Holds 108: snapshot-then-stream for late joiners and seq accounting with merges
(protocol.md "Subscribing, snapshots and resuming", "Sequence numbers", "Slow clients").

A client subscribed from the start records every point; five late joiners' snapshots equal the
strokes in progress at the snapshot seq N, point for point, and their streams continue at N+1
with exactly the same seqs (no gap, no duplicate). A client that pauses (so moves are merged)
still sees seq strictly increasing, every began followed by exactly one ended/cancelled, and,
after unsubscribe, last seq - snapshot seq == messages received + sum(merged).
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR, PK, cut_fixture, lifecycle_errors)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=True, speed=8)
    try:
        a = Conn(d.sock)
        a.req('subscribe')
        snapA = a.next(5)
        A = []
        stop = [False]
        def run():
            while not stop[0]:
                m = a.read(0.2)
                if m:
                    A.append(m)
        th = threading.Thread(target=run)
        th.start()
        time.sleep(0.5)
        res = []
        for k in range(5):
            b = Conn(d.sock)
            rb = b.req('subscribe')
            sb = b.next(5)
            res.append((rb, sb, b.drain(0.5)))
            b.close()
            time.sleep(0.15)
        # slow client
        s = Conn(d.sock, rcvbuf=4096)
        s.req('subscribe')
        ssnap = s.next(5)
        time.sleep(4)
        got = s.drain(2.5)
        s.send({'id': 'u', 'request': 'unsubscribe'})
        got += s.drain(5, stop=lambda m: m.get('id') == 'u')
        time.sleep(0.3)
        stop[0] = True
        th.join()
        check(not any('merged' in m for m in A), 'fast reader never merged')
        for rb, sb, B in res:
            N = sb['seq']
            pts = {x['stroke']: list(x['points']) for x in snapA['strokes']}
            for m in A:
                if m['seq'] > N:
                    break
                if m['type'] == 'began':
                    pts[m['stroke']] = [PK(m)]
                elif m['type'] == 'moved':
                    pts[m['stroke']].append(PK(m))
                elif m['type'] in ('ended', 'cancelled'):
                    pts.pop(m['stroke'], None)
            snap = {x['stroke']: x['points'] for x in sb['strokes']}
            check(rb['seq'] == N and snap == pts, 'snapshot at %d = strokes in progress, every point' % N)
            after = [m['seq'] for m in A if m['seq'] > N][:len(B)]
            check(B and after == [m['seq'] for m in B] and B[0]['seq'] == N + 1, 'stream continues at N+1 like the first client')
        reply = got[-1]
        stream = [m for m in got[:-1] if m['type'] in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
        merged = sum(m.get('merged', 0) for m in stream)
        seqs = [m['seq'] for m in stream]
        live = {x['stroke'] for x in ssnap['strokes']}
        err = lifecycle_errors(stream, live)
        print('slow client: received', len(stream), 'merged', merged, 'snapshot', ssnap['seq'], 'last', seqs[-1], 'unsub', reply)
        check(merged > 0, 'slow client got merged moves')
        check(all(b > a for a, b in zip(seqs, seqs[1:])), 'seq strictly increasing')
        check(err == 0, 'began/moved/ended lifecycle intact for the merged client')
        check(seqs[-1] - ssnap['seq'] == len(stream) + merged, 'last seq - snapshot seq == received + sum(merged)')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
