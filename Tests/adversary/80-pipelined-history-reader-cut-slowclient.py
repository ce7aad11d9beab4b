#!/usr/bin/env python3
"""A client that pipelines 40 `history` requests (one page of ~280 KB each) and reads as fast as
it can is cut off with `goodbye slowClient` after a few replies, on the Unix socket and on the
WebSocket alike. The pacing promise says such a client is only read later.

docs/security.md, abuse table: "ask again and again (... history pages ...) | per client (socket,
WebSocket, each HTTP connection): requests.burstBytes (8 MiB) of replies at once, then
requests.bytesPerSecond (2 MiB/s) ... | its next request is read later ...: nothing is refused,
dropped or answered differently"; docs/protocol.md, Limits: "every request is still answered, in
order, with the same reply; only later"."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17881
N = 40
d = Daemon(http='127.0.0.1:%d' % P, speed=0, loop=False)   # recording 01 once, flat out: 66 strokes in history
time.sleep(2)

# WebSocket
w = WS(P); w.recv_json(); w.s.settimeout(10)
w.s.sendall(w.frame(1, b'{"request":"history","limit":1000000}') * N)
ws_replies = 0; ws_bytes = 0
try:
    while ws_replies < N:
        m = w.recv_json()
        if m.get('type') == 'reply': ws_replies += 1
        elif m.get('type') == 'goodbye' or '_close' in m: break
except Exception:
    pass
# Unix socket, read continuously
s = socket.socket(socket.AF_UNIX); s.connect(d.sock)
s.sendall(b'{"request":"history","limit":1000000}\n' * N)
s.settimeout(10); buf = b''; t0 = time.time()
while time.time() - t0 < 20 and buf.count(b'"request":"history"') < N:
    try:
        x = s.recv(1 << 20)
    except socket.timeout:
        break
    if not x: break
    buf += x
lines = buf.split(b'\n')
sock_replies = sum(1 for l in lines if l.startswith(b'{"type":"reply"'))
goodbye = [l for l in lines if l.startswith(b'{"type":"goodbye"')]
print('WebSocket: %d of %d replies; socket: %d of %d replies, %s' % (ws_replies, N, sock_replies, N, goodbye[0].decode() if goodbye else 'no goodbye'))
if sock_replies < N or ws_replies < N:
    broken('a socket client that pipelined %d history requests and read continuously got %d replies and %s '
           '(WebSocket: %d); security.md: "nothing is refused, dropped or answered differently", '
           'protocol.md: "every request is still answered, in order, with the same reply; only later"'
           % (N, sock_replies, goodbye[0].decode() if goodbye else 'EOF', ws_replies))
held('all %d pipelined history requests answered on the socket and the WebSocket' % N)
