#!/usr/bin/env python3
"""Holds 116: filters and re-subscribing (protocol.md "Requests", "Subscribing"): devices filter on
snapshot, stream, live, history and resume; a second subscribe replaces the first, and a stroke
of a device left out gets no further message (its end included); a `live` reply on a subscribed
connection is in stream order: its seq equals the last stream seq received and its strokes equal
the client's own tracked state, point for point.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR, PK, cut_fixture, lifecycle_errors)


def main():
    d = Daemon('03+11-two-devices.libinput.yml', loop=True, speed=3)
    try:
        c = Conn(d.sock)
        c.req('subscribe', devices=[2])
        sn = c.next(5)
        msgs = c.drain(2.5)
        check(all(s['device'] == 2 for s in sn['strokes']) and msgs and all(m.get('device') == 2 for m in msgs), 'devices [2]: snapshot and stream')
        check(all(s['device'] == 2 for s in c.req('live', devices=[2])['strokes']), 'live devices filter')
        check(all(s['device'] == 2 for s in c.req('history', devices=[2], limit=1000)['strokes']), 'history devices filter')
        L = c.req('stats')['daemon']['seq']
        c.close()
        r = Conn(d.sock)
        rr = r.req('subscribe', devices=[2], resumeAfter=L - 100)
        rm = r.drain(1)
        check(rr.get('resumed') is True and rm and all(m.get('device') == 2 for m in rm), 'resume honours the devices filter')
        r.close()
        for _ in range(2):
            c = Conn(d.sock)
            c.req('subscribe')
            c.next(5)
            while True:
                m = c.next(5)
                if m['type'] == 'began' and m['device'] == 1:
                    break
            c.req('subscribe', devices=[2])
            c.pending = []
            sn = c.next(5)
            check(sn['type'] == 'snapshot' and all(s['device'] == 2 for s in sn['strokes']), 'new snapshot replaces')
            leak = [m for m in c.drain(2) if m.get('device') == 1]
            check(not leak, 'no further message for device-1 strokes after re-subscribing')
            c.close()
        e = Conn(d.sock)
        e.req('subscribe')
        sn = e.next(5)
        pts = {s['stroke']: list(s['points']) for s in sn['strokes']}
        last = sn['seq']
        e.send({'id': 'L', 'request': 'live'})
        n = bad = 0
        end = time.time() + 3
        while time.time() < end:
            m = e.read(1)
            if m is None:
                continue
            if m['type'] == 'reply':
                n += 1
                bad += not (m['seq'] == last and {s['stroke']: s['points'] for s in m['strokes']} == pts)
                e.send({'id': 'L', 'request': 'live'})
                continue
            last = m['seq']
            if m['type'] == 'began':
                pts[m['stroke']] = [PK(m)]
            elif m['type'] == 'moved':
                pts[m['stroke']].append(PK(m))
            elif m['type'] in ('ended', 'cancelled'):
                pts.pop(m['stroke'], None)
        check(n > 50 and bad == 0, 'live replies consistent with the stream (%d replies, %d off)' % (n, bad))
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
