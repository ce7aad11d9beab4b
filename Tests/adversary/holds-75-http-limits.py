#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md HTTP): http.maxConnections (64) connections at once, past it 503 tooManyClients and
# closed; WebSocket/SSE clients count against maxClients; a never-read SSE stream gets the slow-client
# policy (stall timer) like a socket.
PORT = 17490 + os.getpid() % 100
d = Daemon(config='maxClients: 3\nqueue:\n  disconnectAfterSeconds: 3\n', replay=REC01, loop=True, speed=10, http='127.0.0.1:%d' % PORT)
time.sleep(0.5)
def conn(path=b'/healthz', send=True):
    s = socket.create_connection(('127.0.0.1', PORT)); s.settimeout(3)
    if send: s.sendall(b'GET ' + path + b' HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n' % PORT)
    return s
# 1) maxClients counts SSE: 3 SSE streams, the 4th must be refused
sse = [conn(b'/events') for _ in range(3)]
time.sleep(0.5)
s4 = conn(b'/events'); r4 = b''
t4 = time.time()
while time.time() - t4 < 3 and b'tooManyClients' not in r4 and b'"hello"' not in r4:
    try:
        x = s4.recv(4000)
        if not x: break
        r4 += x
    except socket.timeout: break
print('4th SSE with maxClients 3:', r4[:300])
fourth_ok = b'tooManyClients' in r4
# 2) never-reading SSE streams are cut by the stall timer
t0 = time.time(); cut = 0
while time.time() - t0 < 20:
    st = stats(d.sock)['daemon'] if False else None
    s = socket.create_connection(('127.0.0.1', PORT)); s.settimeout(3)
    s.sendall(b'GET /stats HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n' % PORT)
    body = b''
    try:
        while True:
            x = s.recv(65536)
            if not x: break
            body += x
    except socket.timeout: pass
    s.close()
    try:
        j = json.loads(body.partition(b'\r\n\r\n')[2])
        cut = j['daemon']['slowClientsDisconnected']
    except Exception:
        pass
    if cut >= 3: break
    time.sleep(0.5)
print('never-reading SSE cut:', cut, 'after %.1f s' % (time.time() - t0))
for s in sse: s.close()
s4.close()
time.sleep(1)
# 3) maxConnections 64
held_c = []
for i in range(64):
    held_c.append(conn(send=False))
time.sleep(0.5)
x = conn(b'/healthz'); r = b''
try: r = x.recv(2000)
except socket.timeout: r = b'<timeout>'
print('65th connection:', r[:60])
d.stop()
if not fourth_ok: broken('4th SSE stream with maxClients 3 was not refused with tooManyClients: %r' % r4[:200])
if cut < 3: broken('never-reading SSE streams not cut by the stall timer (slowClientsDisconnected %d)' % cut)
if b' 503 ' not in r.split(b'\r\n')[0]: broken('65th HTTP connection got %r, expected 503' % r[:80])
held('HTTP limits')
