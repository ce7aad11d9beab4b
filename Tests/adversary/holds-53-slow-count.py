#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): past queue.disconnectAfter queued messages the client is
# disconnected with goodbye slowClient; from mergeAfter on moves are merged; began/ended/cancelled never
# dropped (lifecycle holds in what it received).
d = Daemon(config='queue:\n  mergeAfter: 50\n  disconnectAfter: 200\n  disconnectAfterSeconds: 600\n', replay=REC01, loop=True, speed=10)
slow = Client(d.sock); slow.send({'id': 1, 'request': 'subscribe'})
mon = Client(d.sock)
t0 = time.time(); cut = None; got = b''
while time.time() - t0 < 120:
    r, _, _ = select.select([slow.s], [], [], 0)
    if r:
        x = slow.s.recv(300)
        if not x: break
        got += x
    st = mon.request({'id': 's', 'request': 'stats'})
    if st['daemon']['slowClientsDisconnected'] >= 1:
        cut = time.time() - t0; break
    time.sleep(0.1)
if cut is None: broken('slow reader (3 KB/s) not disconnected in 120 s with disconnectAfter 200')
while True:
    r, _, _ = select.select([slow.s], [], [], 5)
    if not r: break
    x = slow.s.recv(1 << 20)
    if not x: break
    got += x
d.stop()
lines = [json.loads(l) for l in got.split(b'\n') if l.strip()]
print('cut after %.1f s; %d lines; last %r' % (cut, len(lines), lines[-1]))
if lines[-1].get('type') != 'goodbye' or lines[-1].get('reason') != 'slowClient': broken('no goodbye slowClient at end: %r' % lines[-1])
snap = [m for m in lines if m.get('type') == 'snapshot'][0]
err = lifecycle_check(lines, [s['stroke'] for s in snap['strokes']])
if err: broken(err)
held('count limit: merged then goodbye slowClient after %.1f s' % cut)
