#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): all clients together hold at most queue.totalBytes; past it,
# the biggest holders are disconnected first; a client that keeps up is not the one chosen.
TOTAL = 1000000
d = Daemon(config='queue:\n  totalBytes: %d\n  disconnectAfterSeconds: 600\n' % TOTAL, replay=REC01, loop=True, speed=10)
bads = []
for i in range(6):
    b = Client(d.sock); b.send({'id': 1, 'request': 'subscribe'}); bads.append(b)
good = Client(d.sock); good.send({'id': 1, 'request': 'subscribe'})
mon = Client(d.sock)
maxq = 0; t0 = time.time(); gm = []; last = None
while time.time() - t0 < 25:
    while True:
        m = good.recv(0.01)
        if m is None: break
        gm.append(m)
    st = mon.request({'id': 's', 'request': 'stats'})
    maxq = max(maxq, st['daemon']['queuedBytes']); last = st['daemon']
    time.sleep(0.05)
d.stop()
print('max queuedBytes %d, stats %r' % (maxq, last))
if any(m.get('type') == 'goodbye' for m in gm): broken('the keeping-up client was disconnected')
if maxq > TOTAL + 65536: broken('total queuedBytes reached %d > totalBytes %d' % (maxq, TOTAL))
if last['slowClientsDisconnected'] < 1: broken('no never-reading client was disconnected though %d were held' % maxq)
held('total bytes held <= %d (max %d); %d slow clients cut; good client served' % (TOTAL, maxq, last['slowClientsDisconnected']))
