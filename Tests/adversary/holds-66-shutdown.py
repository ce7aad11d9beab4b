#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Session 3, "Slow clients"): at SIGTERM every live stroke is cancelled (shutdown)
# first, every client gets its queued messages and goodbye shutdown (a never-reading client does not hold
# the daemon up, 2 s), exit 0, socket removed.
d = Daemon(replay=REC01, loop=True, speed=1)
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
lazy = Client(d.sock); lazy.send({'id': 1, 'request': 'subscribe'})
msgs = []
t0 = time.time()
while time.time() - t0 < 5:
    m = c.recv(0.1)
    if m: msgs.append(m)
t1 = time.time()
d.p.send_signal(signal.SIGTERM)
msgs += c.drain_all(timeout=10)
try: rc = d.p.wait(10)
except subprocess.TimeoutExpired: broken('daemon did not exit within 10 s of SIGTERM')
dt = time.time() - t1
snap = [m for m in msgs if m.get('type') == 'snapshot'][0]
live = set(s['stroke'] for s in snap['strokes'])
for m in msgs:
    if m.get('type') == 'began': live.add(m['stroke'])
    if m.get('type') in ('ended', 'cancelled'): live.discard(m['stroke'])
print('exit %s after %.1fs, last msgs %r' % (rc, dt, [ (m.get('type'), m.get('reason')) for m in msgs[-4:]]))
if live: broken('strokes %r not cancelled at shutdown' % sorted(live))
if msgs[-1].get('type') != 'goodbye' or msgs[-1].get('reason') != 'shutdown': broken('last message not goodbye shutdown: %r' % msgs[-1])
if rc != 0: broken('exit status %s' % rc)
if dt > 6: broken('shutdown took %.1f s with a never-reading client' % dt)
if os.path.exists(d.sock): broken('socket file left after exit')
held('shutdown: cancelled, goodbye, exit 0, socket removed in %.1f s' % dt)
