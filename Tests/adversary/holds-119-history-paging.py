#!/usr/bin/env python3
"""Holds 112: history pages (protocol.md "History pages"): with history 50 and historyPageBytes
4096, pages hold >= 1 stroke, a cursor continues until the last page (none), no stroke is repeated,
received + sum(missed) == the selection (50) while strokes keep completing; limit N gives the N most
recent, oldest (by completion) first; ended strokes only; a cursor never given gets badArgument.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=True, speed=10,
               config='history: 50\nhistoryPageBytes: 4096\n')
    try:
        time.sleep(3)
        c = Conn(d.sock)
        check(c.req('stats')['daemon']['completedStrokes'] == 50, 'history ring holds 50')
        r = c.req('history')
        ids = [s['stroke'] for s in r['strokes']]
        missed = r.get('missed', 0)
        pages = 1
        while 'cursor' in r:
            check(len(r['strokes']) >= 1, 'page with a cursor holds >= 1 stroke')
            time.sleep(0.3)
            r = c.req('history', cursor=r['cursor'])
            ids += [s['stroke'] for s in r['strokes']]
            missed += r.get('missed', 0)
            pages += 1
        print('pages', pages, 'strokes', len(ids), 'missed', missed)
        check(pages > 1 and len(ids) == len(set(ids)), 'several pages, nothing repeated')
        check(len(ids) + missed == 50, 'received + missed == selection (50)')
        r = c.req('history', limit=3)
        got = list(r['strokes'])
        while 'cursor' in r:
            r = c.req('history', cursor=r['cursor'])
            got += r['strokes']
        check(len(got) <= 3 and all(s['state'] == 'ended' for s in got), 'limit 3: at most 3 ended strokes')
        e = c.req('history', cursor='999999-999999')
        check(e.get('error') == 'badArgument', 'cursor beyond what was completed: badArgument')
        check(c.req('history', limit=0)['strokes'] == [], 'limit 0: empty')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
