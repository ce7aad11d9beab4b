#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients", measured claim): "a client reading 256 bytes every 100 ms is served
# until its queue is full (8192 messages, after about 150 s of a 10x replay)" -- i.e. such a reader is not
# cut by the 15 s stall timer. We watch it for 60 s (far less than 150 s: it must still be connected).
d = Daemon(replay=REC01, loop=True, speed=10)
slow = Client(d.sock); slow.send({'id': 1, 'request': 'subscribe'})
mon = Client(d.sock)
t0 = time.time(); cut = None; got = b''
while time.time() - t0 < 60:
    r, _, _ = select.select([slow.s], [], [], 0)
    if r:
        x = slow.s.recv(256)
        if not x: break
        got += x
    if int((time.time() - t0) * 10) % 10 == 0:
        st = mon.request({'id': 's', 'request': 'stats'})
        if st['daemon']['slowClientsDisconnected'] >= 1:
            cut = time.time() - t0; break
    time.sleep(0.1)
d.stop()
if cut is not None:
    broken('a client reading 256 bytes every 100 ms was disconnected after %.1f s of a 10x replay (docs: served ~150 s until 8192 messages queued)' % cut)
held('256 B / 100 ms reader still served after 60 s')
