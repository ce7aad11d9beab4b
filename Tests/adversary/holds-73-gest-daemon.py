#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Gesture events", gestures.md): a continuous gesture is a begin, updates and exactly
# one end or cancel; a daemon stopping closes every gesture under way before goodbye; gesture lines carry no
# seq; the default subscription never carries gesture/hover; unfiltered seq numbering stays gapless.
d = Daemon(replay=REC01, loop=True, speed=5)
g = Client(d.sock); g.send({'id': 1, 'request': 'subscribe', 'events': ['began', 'moved', 'ended', 'cancelled', 'gesture']})
plain = Client(d.sock); plain.send({'id': 1, 'request': 'subscribe'})
gm, pm = [], []
t0 = time.time()
while time.time() - t0 < 20:
    m = g.recv(0.01)
    if m: gm.append(m)
    m = plain.recv(0.01)
    if m: pm.append(m)
d.p.send_signal(signal.SIGTERM)
gm += g.drain_all(10); pm += plain.drain_all(10)
d.p.wait(10)
if any(m.get('type') in ('gesture', 'hover') for m in pm): broken('default subscription got gesture/hover lines')
st = {}
errs = []
for m in gm:
    if m.get('type') != 'gesture': continue
    if 'seq' in m: errs.append('gesture with seq')
    gid, ph = m['gesture'], m['phase']
    s = st.get(gid)
    if ph == 'begin':
        if s is not None: errs.append('gesture %d begins twice' % gid)
        st[gid] = 'open'
    elif ph == 'update':
        if s == 'done': errs.append('update after end for %d' % gid)
        if s is None: st[gid] = 'open'   # began before we subscribed
    else:
        if s == 'done': errs.append('gesture %d %s after it finished' % (gid, ph))
        st[gid] = 'done'
openg = [k for k, v in st.items() if v == 'open']
print('gesture lines', sum(1 for m in gm if m.get('type') == 'gesture'), 'ids', len(st), 'open at goodbye', openg, 'last', gm[-1])
if gm[-1].get('type') != 'goodbye': errs.append('no goodbye last')
if openg: errs.append('gestures still open at goodbye: %r' % openg)
stream = [m for m in pm if 'seq' in m and m.get('type') in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
seqs = [m['seq'] for m in stream]
if seqs != list(range(seqs[0], seqs[0] + len(seqs))): errs.append('default subscriber seq not gapless')
if errs: broken('; '.join(errs[:5]))
held('gestures close exactly once, before goodbye')
