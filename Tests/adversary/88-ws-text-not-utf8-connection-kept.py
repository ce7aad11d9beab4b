#!/usr/bin/env python3
"""A text frame whose payload is not UTF-8 gets an `invalidJSON` error and the connection stays
open; RFC 6455 requires failing the connection (close 1007).

RFC 6455 §8.1: "When an endpoint is to interpret a byte stream as UTF-8 but finds that the byte
stream is not, in fact, a valid UTF-8 stream, that endpoint MUST _Fail the WebSocket Connection_";
§7.4.1: 1007 "data within a message that was not consistent with the type of the message (e.g.,
non-UTF-8 [RFC3629] data within a text message)". docs/protocol.md, WebSocket, cites RFC 6455
5.1 and 5.2 for protocol errors and is silent on this case."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17884
d = Daemon(http='127.0.0.1:%d' % P)
w = WS(P); w.recv_json(); w.s.settimeout(3)
w.send(1, b'{"request":"ping","id":"\xc3\x28"}')
w.send(1, b'{"request":"ping","id":2}')
got = []
try:
    while True:
        op, p = w.recv(); got.append((op, p[:90]))
        if op == 8: break
except (EOFError, OSError):
    pass
print(got)
if not got or got[0][0] != 8 or got[0][1][:2] != struct.pack('>H', 1007):
    broken('a text frame that is not UTF-8 got %r and the connection stayed (next request answered: %s); '
           'RFC 6455 §8.1 requires _Fail the WebSocket Connection_ (close 1007)' % (got[:1], any(b'"id":2' in p for _, p in got)))
held('a text frame that is not UTF-8 closes the connection with 1007')
