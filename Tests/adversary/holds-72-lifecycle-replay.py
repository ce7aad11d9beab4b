#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Stroke events" Guarantee; gestures.md "Every begin gets exactly one end or cancel"):
# strokes replay of every fixture: every began followed by exactly one ended/cancelled or listed in
# replayEnded.stillActive; every gesture begin gets exactly one end/cancel; ids unique.
import glob
bad = []
for f in sorted(glob.glob(FIX + '/*.evemu')):
    p = subprocess.run([BIN, 'replay', '--gestures', '--hover', f], capture_output=True, timeout=120)
    if p.returncode != 0: bad.append((f, 'rc %d' % p.returncode)); continue
    msgs = [json.loads(l) for l in p.stdout.splitlines()]
    end = msgs[-1]
    if end.get('type') != 'replayEnded': bad.append((f, 'no replayEnded')); continue
    err = lifecycle_check(msgs)
    if err: bad.append((f, err))
    live = set()
    for m in msgs:
        if m.get('type') == 'began': live.add(m['stroke'])
        if m.get('type') in ('ended', 'cancelled'): live.discard(m['stroke'])
    if live != set(end['stillActive']): bad.append((f, 'still active %r vs %r' % (sorted(live), end['stillActive'])))
    g = {}
    for m in msgs:
        if m.get('type') != 'gesture': continue
        st = g.get(m['gesture'])
        ph = m['phase']
        if ph == 'begin':
            if st is not None: bad.append((f, 'gesture %d begins twice' % m['gesture']))
            g[m['gesture']] = 'open'
        elif ph == 'update':
            if st != 'open': bad.append((f, 'gesture %d update in state %s' % (m['gesture'], st)))
        elif ph in ('end', 'cancel'):
            if st == 'done': bad.append((f, 'gesture %d %s after it finished' % (m['gesture'], ph)))
            if st is None and m['kind'] not in ('tap', 'doubleTap'): bad.append((f, 'gesture %d %s without begin' % (m['gesture'], ph)))
            g[m['gesture']] = 'done'
    if any('seq' in m for m in msgs if m.get('type') in ('hover', 'gesture')): bad.append((f, 'hover/gesture carries seq'))
    print(os.path.basename(f), len(msgs), 'lines', sum(1 for m in msgs if m.get('type') == 'gesture'), 'gesture lines', 'open at end', [k for k, v in g.items() if v == 'open'])
if bad: broken('%r' % bad[:5])
held('replay lifecycle + gestures')
