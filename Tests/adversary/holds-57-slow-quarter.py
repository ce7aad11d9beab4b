#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): "Merging already starts at a quarter of disconnectAfterBytes"
# (even when mergeAfter is not reached).
d = Daemon(config='queue:\n  mergeAfter: 100000\n  disconnectAfter: 200000\n  disconnectAfterBytes: 1000000\n', replay=REC01, loop=True, speed=10)
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
mon = Client(d.sock)
maxq = 0
t0 = time.time()
while time.time() - t0 < 7:
    maxq = max(maxq, mon.request({'id': 's', 'request': 'stats'})['daemon']['queuedBytes']); time.sleep(0.2)
msgs = []
t1 = time.time()
while time.time() - t1 < 4:
    m = c.recv(0.5)
    if m is None: break
    msgs.append(m)
d.stop()
if any(m.get('type') == 'goodbye' for m in msgs): broken('client cut: %r (max queued %d)' % ([m for m in msgs if m.get('type') == 'goodbye'], maxq))
nm = sum(1 for m in msgs if 'merged' in m)
print('max queuedBytes', maxq, 'merged messages', nm)
if nm == 0: broken('no merging although %d bytes were queued (quarter of 1000000 = 250000) with mergeAfter 100000' % maxq)
held('merging from a quarter of disconnectAfterBytes (max queued %d)' % maxq)
