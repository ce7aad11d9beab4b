#!/usr/bin/env python3
"""Finding 135: a client that pipelines requests (pings) and never reads keeps ~2000 replies
(~210 KB charged, ~1 MB of real memory: finding 130) queued in the daemon forever: the stall
timer (queue.disconnectAfterSeconds) never disconnects it, while a never-reading *subscriber*
next to it is disconnected on time. Every such connection pins its memory indefinitely.

docs/protocol.md, "Slow clients": "A client whose socket has taken nothing for
queue.disconnectAfterSeconds (15 by default) while messages wait for it is disconnected the same
way: a client that reads nothing at all goes long before its queue fills."
Run with disconnectAfterSeconds: 2 and a 7 s wait.
Exit 1 (BROKEN) while the never-reading pinger is still connected with replies queued.
Fixed: the stall time is checked when it is due, for every client.
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(config='queue:\n  disconnectAfterSeconds: 2\n', replay=REC01, loop=True, speed=10)
pinger = socket.socket(socket.AF_UNIX); pinger.connect(d.sock); pinger.setblocking(False)
line = b'{"id":1,"request":"ping"}\n'
for _ in range(40):
    try:
        while True: pinger.send(line * 2000)
    except BlockingIOError: pass
    time.sleep(0.02)
sub = socket.socket(socket.AF_UNIX); sub.connect(d.sock); sub.sendall(b'{"request":"subscribe"}\n')
time.sleep(7)
s = stats(d.sock)['daemon']
print('after 7 s (disconnectAfterSeconds 2): clients %d (incl. this probe), slowClientsDisconnected %d, queuedBytes %d'
      % (s['clients'], s['slowClientsDisconnected'], s['queuedBytes']))
if s['clients'] >= 2 and s['queuedBytes'] > 0:
    broken('a never-reading client holding %d bytes of queued replies is still connected after 7 s with disconnectAfterSeconds 2 (the never-reading subscriber beside it was cut: %d)' % (s['queuedBytes'], s['slowClientsDisconnected']))
held('the never-reading request pipeliner was disconnected by the stall timer')
