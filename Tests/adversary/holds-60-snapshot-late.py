#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md): after a subscribe the snapshot holds the strokes in progress; nothing lost or
# repeated: a stroke is either in the snapshot or begins after it; every began is followed by exactly one
# ended/cancelled. Many late joiners at random moments.
import random
d = Daemon(replay=REC01, loop=True, speed=5)
bad = None
for k in range(12):
    time.sleep(random.random() * 0.5)
    c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
    msgs = []
    t0 = time.time()
    while time.time() - t0 < 2.5:
        m = c.recv(0.5)
        if m: msgs.append(m)
    c.close()
    snap = [m for m in msgs if m.get('type') == 'snapshot']
    if len(snap) != 1: broken('snapshot count %d' % len(snap))
    snap = snap[0]
    for s in snap['strokes']:
        if s.get('state') != 'inProgress': broken('snapshot stroke state %r' % s.get('state'))
    err = lifecycle_check([m for m in msgs if m.get('seq', 0) > snap['seq'] and m.get('type') != 'snapshot'], [s['stroke'] for s in snap['strokes']])
    if err: broken('late joiner %d: %s' % (k, err))
    first = [m for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled')]
    if first and first[0]['seq'] != snap['seq'] + 1: broken('first stream seq %d after snapshot seq %d' % (first[0]['seq'], snap['seq']))
d.stop()
held('12 late joiners: snapshot + stream consistent')
