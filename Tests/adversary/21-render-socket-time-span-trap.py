#!/usr/bin/env python3
"""`strokes render --socket` against a server whose `history` holds a stroke with well-typed but
extreme point times: 0 and 9223372036854775807 µs (or -1 and Int64.max, Int64.min and 0).

Promised: README, "Look at strokes": "`--socket [PATH]` draws a running daemon's completed
strokes (its `history` ...) and those in progress", with `--from`/`--to` in "seconds ... from the
earliest point a daemon gave"; Sources/StrokeClient/LineSocket.swift (the reader render uses):
"a broken or hostile server's [lines] need not end at all" - the client is written for servers
that are not well behaved, and refuses what it cannot read ("sent something this client cannot
read", exit 65) rather than crashing.
Broken when render dies on a signal (an arithmetic-overflow trap while writing the legend's
duration: SVGRenderer+Legend.swift / SVGText.seconds) instead of drawing or refusing the data.
Usage: python3 21-render-socket-time-span-trap.py [/path/to/strokes]"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

DIR = scratch_dir('advy-rtime-')
I64, I64N = 9223372036854775807, -9223372036854775808

def stroke(times):
    return {"stroke": 1, "device": 1, "slot": 0, "trackingId": 1, "state": "ended",
            "points": [{"time": t, "x": 10 + i, "y": 10 + i, "nx": 0.01, "ny": 0.01} for i, t in enumerate(times)]}

def server(history):
    def answer(r, send):
        if r["request"] != "history": return False
        send({"type": "reply", "id": r.get("id"), "request": "history", "strokes": history})
        return True
    return lambda c, send, stop: fake_requests(c, send, stop, answer)

CASES = {'0 .. 2^63-1': [0, I64], '-1 .. 2^63-1': [-1, I64], '-2^63 .. 0': [I64N, 0]}
failures = []
for i, (name, times) in enumerate(CASES.items()):
    path = DIR + '/f%d.sock' % i
    FakeDaemon(path, server([stroke(times)]))
    p = subprocess.Popen([BIN, 'render', '--socket', path, '-o', DIR + '/out%d.svg' % i],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    PROCS.append(p)
    try:
        _, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill(); p.communicate(); failures.append('%s: still running after 20 s' % name); continue
    err = err.decode('utf-8', 'replace')
    trap = [l.strip() for l in err.splitlines() if 'Fatal error' in l or 'runtime failure' in l]
    where = [l.strip() for l in err.splitlines() if '/Sources/Stroke' in l][:1]
    if p.returncode < 0 or trap:
        failures.append('times %s: killed by signal %d (%s%s)' % (name, -p.returncode if p.returncode < 0 else 0,
                        trap[0] if trap else 'no message', '; at ' + where[0] if where else ''))
if failures:
    broken('strokes render --socket crashed on a history stroke with extreme times: ' + ' | '.join(failures))
held('extreme point times were drawn or refused, no crash')
