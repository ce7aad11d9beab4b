#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Hover events"): hover only on request, never numbered; the unfiltered stream stays
# gapless; order: proximityIn before began, ended before proximityOut.
d = Daemon(replay=FIX + '/17-wacom-cintiq12wx-pen-and-eraser.evemu', loop=True, speed=3)
h = Client(d.sock); h.send({'id': 1, 'request': 'subscribe', 'events': ['began', 'moved', 'ended', 'cancelled', 'hover']})
p = Client(d.sock); p.send({'id': 1, 'request': 'subscribe'})
hm, pm = [], []
t0 = time.time()
while time.time() - t0 < 12:
    m = h.recv(0.01)
    if m: hm.append(m)
    m = p.recv(0.01)
    if m: pm.append(m)
d.stop()
errs = []
if any(m.get('type') == 'hover' for m in pm): errs.append('default subscriber got hover')
hov = [m for m in hm if m.get('type') == 'hover']
if not hov: errs.append('no hover lines at all for a pen recording')
if any('seq' in m for m in hov): errs.append('hover carries seq')
stream = [m for m in pm if m.get('type') in ('began', 'moved', 'ended', 'cancelled')]
seqs = [m['seq'] for m in stream]
if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))): errs.append('default stream not gapless')
print('hover lines', len(hov), 'stroke lines', len(stream))
if errs: broken('; '.join(errs))
held('hover only on request, unnumbered')
