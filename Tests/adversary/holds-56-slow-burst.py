#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): a client that reads in bursts (nothing for 5 s, then everything) is
# merged but not disconnected (it reads well within disconnectAfterSeconds and its merged queue stays under
# the limits); it never loses began/ended/cancelled; seq accounting holds.
d = Daemon(replay=REC01, loop=True, speed=10)
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
msgs = []; t0 = time.time()
while time.time() - t0 < 32:
    time.sleep(5)
    t1 = time.time()
    while time.time() - t1 < 1.0:
        m = c.recv(0.2)
        if m is None: break
        msgs.append(m)
c.send({'id': 2, 'request': 'unsubscribe'})
more, rep = c.until(lambda m: m.get('type') in ('reply', 'error') and m.get('id') == 2, 30)
msgs += more
d.stop()
if any(m.get('type') == 'goodbye' for m in msgs): broken('bursty reader disconnected: %r' % [m for m in msgs if m.get('type') == 'goodbye'])
snap = [m for m in msgs if m.get('type') == 'snapshot'][0]
err = lifecycle_check(msgs, [s['stroke'] for s in snap['strokes']])
if err: broken(err)
stream = [m for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
merged = sum(m.get('merged', 0) for m in stream)
print('received', len(stream), 'merged', merged, 'snap', snap['seq'], 'last', rep['seq'])
if rep['seq'] - snap['seq'] != len(stream) + merged: broken('seq accounting off: %d vs %d' % (rep['seq'] - snap['seq'], len(stream) + merged))
held('bursty reader served, merged %d' % merged)
