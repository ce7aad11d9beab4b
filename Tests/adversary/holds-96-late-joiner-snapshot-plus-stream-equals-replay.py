#!/usr/bin/env python3
"""Holds (regression guard): a client that subscribes in the middle of `daemon --replay` of the
ten-finger recording 01 rebuilds, from its `snapshot` plus the live stream after it, exactly the
polylines `strokes replay` gives for every stroke it sees (protocol.md: "Nothing is lost or
repeated between the two: a stroke is either in the snapshot or begins after it"; "ended adds a
point only if it differs from the previous one in anything but time"), with gapless `seq`s, the
lifecycle guarantee, and (after it) `history` pages equal to the replay's ended strokes.
Usage: python3 holds-96-...py [BINARY]"""
import os, sys, json, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

POINT_KEYS = None
def point(m):
    return {k: v for k, v in m.items() if k not in ('type', 'seq', 'stroke', 'device', 'frame', 'slot', 'trackingId', 'flags', 'reason', 'merged')}

rep = [json.loads(l) for l in replay_output(REC01).splitlines()]
poly, fate = {}, {}
for m in rep:
    t = m['type']
    if t == 'began': poly[m['stroke']] = [point(m)]
    elif t == 'moved': poly[m['stroke']].append(point(m))
    elif t == 'ended':
        if {k: v for k, v in point(m).items() if k != 'time'} != {k: v for k, v in poly[m['stroke']][-1].items() if k != 'time'}:
            poly[m['stroke']].append(point(m))
        fate[m['stroke']] = 'ended'
    elif t == 'cancelled': fate[m['stroke']] = 'cancelled'

d = Daemon(replay=REC01, loop=False, speed=3)
time.sleep(3.0)                     # about 9 s into the 24 s recording: fingers are down
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe'})
msgs = c.drain_all(timeout=20, idle=4)
if not msgs or msgs[0].get('type') != 'reply': setup_error('no subscribe reply: %r' % msgs[:1])
snap = msgs[1]
if snap.get('type') != 'snapshot': broken('no snapshot after the subscribe reply: %r' % snap)
if not snap['strokes']: setup_error('joined when no finger was down; nothing to check')
mine = {s['stroke']: list(s['points']) for s in snap['strokes']}
err = lifecycle_check(msgs[2:], [s['stroke'] for s in snap['strokes']])
if err: broken('lifecycle after the snapshot: ' + err)
seqs = [snap['seq']] + [m['seq'] for m in msgs[2:] if 'seq' in m]
if any(b != a + 1 for a, b in zip(seqs, seqs[1:])): broken('seq not contiguous after the snapshot: %s' % seqs[:20])
for m in msgs[2:]:
    t = m.get('type')
    if t == 'began': mine[m['stroke']] = [point(m)]
    elif t == 'moved': mine[m['stroke']].append(point(m))
    elif t == 'ended':
        if {k: v for k, v in point(m).items() if k != 'time'} != {k: v for k, v in mine[m['stroke']][-1].items() if k != 'time'}:
            mine[m['stroke']].append(point(m))
for sid, pts in mine.items():
    if sid not in poly: broken('stroke %s is not in strokes replay' % sid)
    if pts != poly[sid]:
        i = next((i for i, (a, b) in enumerate(zip(pts, poly[sid])) if a != b), min(len(pts), len(poly[sid])))
        broken('stroke %s: %d points from snapshot+stream, %d in replay; first difference at %d: %r vs %r'
               % (sid, len(pts), len(poly[sid]), i, pts[i] if i < len(pts) else None, poly[sid][i] if i < len(poly[sid]) else None))
missing = [s for s in poly if s > max(mine) and s not in mine]
if missing: broken('strokes that began after the join never reached the client: %s' % missing[:10])

hist, cur, i = {}, None, 0
while True:
    q = {'id': 'h%d' % i, 'request': 'history', 'limit': 1000000}
    if cur: q['cursor'] = cur
    r = c.request(q); i += 1
    if r is None or r.get('type') != 'reply': broken('history: %r' % r)
    for s in r['strokes']: hist[s['stroke']] = s['points']
    cur = r.get('cursor')
    if not cur: break
ended = [s for s, f in fate.items() if f == 'ended']
if sorted(hist) != sorted(ended): broken('history holds %d strokes, replay ended %d' % (len(hist), len(ended)))
for s in ended:
    if hist[s] != poly[s]: broken('history stroke %s differs from the replay polyline' % s)
held('snapshot (%d strokes) + stream rebuilt %d strokes equal to replay; history equals the %d ended strokes'
     % (len(snap['strokes']), len(mine), len(ended)))
