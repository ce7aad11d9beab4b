#!/usr/bin/env python3
"""Holds 117: request pacing and history page size (protocol.md "Limits", "History pages"): 60
pipelined first-page history requests (~250 KiB each, 15 MB in all) are all answered, in order,
each with the same reply; the first ~8 MiB at once, the rest paced (stats you.paced > 0);
every page's strokes fit historyPageBytes (256 KiB) and pages joined give every stroke once.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=False, speed=0)
    try:
        time.sleep(1.5)
        c = Conn(d.sock)
        c.send(b'{"request":"history"}\n')
        first = c.line(10)
        ids, cur, sizes = [], None, []
        while True:
            c.send(json.dumps({'request': 'history', 'cursor': cur}).encode() + b'\n' if cur else b'{"request":"history"}\n')
            m = json.loads(c.line(10))
            sizes.append(sum(len(json.dumps(s, separators=(',', ':'))) for s in m['strokes']))
            ids += [s['stroke'] for s in m['strokes']]
            cur = m.get('cursor')
            if not cur:
                break
        st = c.req('stats')['daemon']
        check(len(sizes) > 1 and all(x <= 262144 for x in sizes), 'pages within historyPageBytes: %s' % sizes)
        check(sorted(ids) == sorted(set(ids)) and len(ids) == st['completedStrokes'], 'pages joined = whole history once')
        N = 60
        data = b''.join(b'{"id":%d,"request":"history"}\n' % i for i in range(N))
        threading.Thread(target=lambda: c.s.sendall(data), daemon=True).start()
        same = True
        t0 = time.time()
        times = []
        for i in range(N):
            l = c.line(30)
            m = json.loads(l)
            if m.get('id') != i:
                same = False
                print('unexpected', l[:100])
                break
            same &= l.replace(b'"id":%d,' % i, b'"id":null,') == first
            times.append(time.time() - t0)
        you = c.req('stats')['you']
        print('answer times', [round(x, 2) for x in times[::10]], 'paced', you['paced'])
        check(same and len(times) == N, 'every request answered in order with the same reply')
        check(you['paced'] > 0 and times[-1] > 1.0 and times[20] < 1.0, 'burst at once, then paced')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
