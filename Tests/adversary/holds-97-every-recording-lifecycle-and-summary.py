#!/usr/bin/env python3
"""Holds (regression guard): every real recording (Tests/ReplayTests/Fixtures, plus ../shared/recordings when
present: 04 and 14 too) through `strokes replay` in each output mode (plain, --hover, --gestures,
--touch-jumps off): exit 0; every `began` followed by exactly one `ended`/`cancelled` and nothing
after it; stroke ids unique; per-device frames non-decreasing; `replayEnded.stillActive` equal to
the strokes left open; stroke events identical across modes (hover/gesture lines aside); and
`replay --summary`'s strokes / ended / cancelled / still active / most concurrent / points moved /
frames equal to what the event stream shows. The evemu, evtest and libinput-record versions of
recording 03 give the same strokes (times aside).
Usage: python3 holds-97-...py [BINARY]"""
import os, sys, json, glob, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

files = sorted(glob.glob(FIX + '/*.evemu') + glob.glob(FIX + '/*.txt') + glob.glob(FIX + '/*.yml'))
shared = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', '..', 'shared', 'recordings')  # ../shared beside the checkout
if os.path.isdir(shared):
    have = {os.path.basename(f) for f in files}
    files += sorted(f for f in glob.glob(shared + '/*') if not f.endswith('.md') and os.path.basename(f) not in have)

def run(args):
    try:
        r = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=50)
    except subprocess.TimeoutExpired:
        broken('%s did not finish' % ' '.join(args))
    if r.returncode != 0: broken('%s: exit %d: %s' % (' '.join(args), r.returncode, r.stderr[-300:]))
    return r.stdout

def check(name, msgs):
    state, frames, n = {}, {}, 0
    for m in msgs:
        t = m['type']
        if t in ('began', 'moved', 'ended', 'cancelled'):
            s = m['stroke']
            if t == 'began':
                if s in state: broken('%s: stroke %s began twice' % (name, s))
                state[s] = 'live'
            elif state.get(s) != 'live': broken('%s: %s for stroke %s in state %s' % (name, t, s, state.get(s)))
            elif t != 'moved': state[s] = 'done'
        if t != 'replayEnded' and 'frame' in m:
            if m['frame'] < frames.get(m['device'], 0): broken('%s: device %s frame went back' % (name, m['device']))
            frames[m['device']] = m['frame']
    ends = [m for m in msgs if m['type'] == 'replayEnded']
    if len(ends) != 1: broken('%s: %d replayEnded lines' % (name, len(ends)))
    live = sorted(s for s, v in state.items() if v == 'live')
    if sorted(ends[0]['stillActive']) != live: broken('%s: stillActive %s, open strokes %s' % (name, ends[0]['stillActive'], live))

strokes_only = lambda msgs: [m for m in msgs if m['type'] in ('began', 'moved', 'ended', 'cancelled', 'replayEnded')]
for f in files:
    base = os.path.basename(f)
    plain = [json.loads(l) for l in run(['replay', f]).splitlines()]
    check(base, plain)
    for mode in (['--hover'], ['--gestures']):
        other = [json.loads(l) for l in run(['replay'] + mode + [f]).splitlines()]
        check(base + ' ' + mode[0], other)
        if strokes_only(other) != strokes_only(plain): broken('%s: %s changes the stroke events' % (base, mode[0]))
    check(base + ' --touch-jumps off', [json.loads(l) for l in run(['replay', '--touch-jumps', 'off', f]).splitlines()])
    kv = {}
    for l in run(['replay', '--summary', f]).splitlines():
        k, _, v = l.partition(':'); kv.setdefault(k.strip(), v.strip())
    live, most = set(), 0
    for m in plain:
        if m['type'] == 'began': live.add(m['stroke']); most = max(most, len(live))
        elif m['type'] in ('ended', 'cancelled'): live.discard(m['stroke'])
    want = {'strokes': sum(m['type'] == 'began' for m in plain), 'ended': sum(m['type'] == 'ended' for m in plain),
            'cancelled': sum(m['type'] == 'cancelled' for m in plain), 'still active': len(plain[-1]['stillActive']),
            'most concurrent': most, 'points moved': sum(m['type'] == 'moved' for m in plain), 'frames': plain[-1]['frames']}
    got = {k: int(kv[k].split()[0]) for k in want}
    if got != want: broken('%s: --summary %s, events say %s' % (base, got, want))

same = []
for ext in ('evemu', 'evtest.txt', 'libinput.yml'):
    msgs = [json.loads(l) for l in run(['replay', FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.' + ext]).splitlines()]
    for m in msgs: m.pop('time', None)
    same.append(msgs)
if not (same[0] == same[1] == same[2]): broken('recording 03 gives different strokes as evemu, evtest and libinput record')
held('%d recordings: lifecycle, stillActive, modes and --summary consistent; 03 equal in all three formats' % len(files))
