#!/usr/bin/env python3
"""A WebSocket frame with a reserved opcode (0x3-0x7 non-control, 0xB-0xF control) is silently
ignored and the connection goes on; RFC 6455 requires failing the connection.

RFC 6455 §5.2: "If an unknown opcode is received, the receiving endpoint MUST _Fail the WebSocket
Connection_." docs/protocol.md, WebSocket: protocol errors "get 1002 (protocol error), then the
connection closes (RFC 6455, 5.1 and 5.2)"."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17882
d = Daemon(http='127.0.0.1:%d' % P)
bad = []
for opc in (0x3, 0x7, 0xB, 0xF):
    w = WS(P); w.recv_json(); w.s.settimeout(3)
    w.send(opc, b'{"request":"ping","id":1}')
    w.send(1, b'{"request":"ping","id":2}')
    try:
        op, p = w.recv()
    except (EOFError, OSError):
        op, p = None, b''
    print('opcode %#x: next frame from the daemon: %s' % (opc, (op, p[:60])))
    if op != 8 or p[:2] != struct.pack('>H', 1002): bad.append(opc)
if bad:
    broken('frames with reserved opcodes %s were ignored (the next request was answered) instead of '
           'close 1002 and the connection closed (RFC 6455 §5.2 "MUST _Fail the WebSocket Connection_")'
           % ', '.join('%#x' % o for o in bad))
held('reserved opcodes fail the connection with 1002')
