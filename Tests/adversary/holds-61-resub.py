#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md): "subscribe again replaces the subscription (and sends a new snapshot)"; after a
# snapshot "nothing is lost or repeated": every stream message after it has seq > snapshot seq and the
# lifecycle holds relative to the snapshot.
import random
d = Daemon(replay=REC01, loop=True, speed=5)
c = Client(d.sock)
errs = []
for k in range(25):
    c.send({'id': k, 'request': 'subscribe'})
    msgs, rep = c.until(lambda m: m.get('type') == 'reply' and m.get('id') == k, 10)
    snap = c.recv(5)
    if not snap or snap.get('type') != 'snapshot': errs.append('no snapshot right after reply %d: %r' % (k, snap and snap.get('type'))); break
    if snap['seq'] != rep['seq']: errs.append('snapshot seq %d != reply seq %d' % (snap['seq'], rep['seq']))
    after = []
    t0 = time.time(); dur = random.random() * 0.6
    while time.time() - t0 < dur:
        m = c.recv(0.05)
        if m: after.append(m)
    low = [m for m in after if 'seq' in m and m.get('type') not in ('snapshot',) and m['seq'] <= snap['seq']]
    if low: errs.append('after re-subscribe %d, message with seq %d <= snapshot seq %d' % (k, low[0]['seq'], snap['seq']))
    e = lifecycle_check(after, [s['stroke'] for s in snap['strokes']])
    if e: errs.append('resubscribe %d: %s' % (k, e))
d.stop()
if errs: broken('; '.join(errs[:4]))
held('25 re-subscribes consistent')
