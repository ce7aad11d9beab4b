#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Session 3): a client that shuts down its sending side without subscribing gets
# goodbye clientClosed (after the replies to what it sent); after subscribing it goes on receiving.
d = Daemon(replay=REC01, loop=True, speed=2)
c = Client(d.sock); c.sendraw(b'{"id":1,"request":"ping"}\n{"id":2,"request":"stats"}\n'); c.s.shutdown(socket.SHUT_WR)
out = c.drain_all(5)
print([m.get('type') + ':' + str(m.get('id', m.get('reason'))) for m in out])
if [m.get('type') for m in out] != ['reply', 'reply', 'goodbye'] or out[-1].get('reason') != 'clientClosed':
    broken('shutdown(WR) without subscribe: got %r' % [(m.get('type'), m.get('id'), m.get('reason')) for m in out])
c = Client(d.sock); c.sendraw(b'{"id":1,"request":"ping"}'); c.s.shutdown(socket.SHUT_WR)
out2 = c.drain_all(5)
print('partial last line:', [(m.get('type'), m.get('id'), m.get('reason')) for m in out2])
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'}); c.s.shutdown(socket.SHUT_WR)
t0 = time.time(); n = 0
while time.time() - t0 < 3:
    m = c.recv(1)
    if m is None: break
    if m.get('type') == 'goodbye': broken('subscribed half-closed client got %r' % m)
    n += 1
if n < 10: broken('subscribed half-closed client stopped receiving (%d msgs)' % n)
d.stop()
held('clientClosed semantics')
