#!/usr/bin/env python3
"""The daemon answers an invalid close frame by echoing its code (or an empty close): a 1-byte body, the codes
1005/1006 (which no endpoint may send), 999, and a reason that is not UTF-8. It thereby itself sends
close frames carrying 1005/1006; RFC 6455 requires a protocol error (1002) instead.

RFC 6455 §5.5.1: "If there is a body, the first two bytes of the body MUST be a 2-byte unsigned
integer"; §7.4.1: 1005 and 1006 "MUST NOT be set as a status code in a Close control frame by an
endpoint"; §8.1 (close reason not UTF-8: "MUST _Fail the WebSocket Connection_").
docs/protocol.md, WebSocket: "the client's close frame is echoed and the connection closes"."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17883
d = Daemon(http='127.0.0.1:%d' % P)
cases = [('1-byte body', b'\x03'), ('code 1005', struct.pack('>H', 1005)), ('code 1006', struct.pack('>H', 1006)),
         ('code 999', struct.pack('>H', 999)), ('reason not UTF-8', struct.pack('>H', 1000) + b'\xff\xfe')]
bad = []
for name, body in cases:
    w = WS(P); w.recv_json(); w.s.settimeout(3)
    w.send(8, body)
    try:
        op, p = w.recv()
    except (EOFError, OSError):
        op, p = None, b''
    code = struct.unpack('>H', p[:2])[0] if op == 8 and len(p) >= 2 else None
    print('%-17s -> %s' % (name, (op, p)))
    # A reason that is not UTF-8 fails the connection as other invalid text does (§8.1: 1007).
    want = 1007 if name == 'reason not UTF-8' else 1002
    if code != want: bad.append('%s answered %s, want %s' % (name, code if code is not None else repr(p), want))
if bad:
    broken('invalid close frames are echoed instead of close 1002: %s (RFC 6455 §5.5.1, §7.4.1, §8.1)' % '; '.join(bad))
held('invalid close frames get 1002 (1007 for a reason that is not UTF-8)')
