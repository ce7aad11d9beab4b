#!/usr/bin/env python3
"""The WebSocket upgrade is accepted (101) when Sec-WebSocket-Key is not a base64 16-byte nonce,
when the Connection header lacks the `Upgrade` token (or is absent), and for an HTTP/1.0 request.

docs/protocol.md, HTTP errors: "426 | badArgument | GET /ws without a valid WebSocket upgrade";
RFC 6455 §4.2.1: the opening handshake has "A |Connection| header field that includes the token
"Upgrade"" and "A |Sec-WebSocket-Key| header field with a base64-encoded value that, when decoded,
is 16 bytes in length", and (§4.1) "The method of the request MUST be GET, and the HTTP version MUST
be at least 1.1"; otherwise the server "MUST stop processing the client's handshake and
return an HTTP response with an appropriate error code (such as 400 Bad Request)"."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17885
d = Daemon(http='127.0.0.1:%d' % P)
def status(key, conn, ver=b'1.1'):
    s = socket.create_connection(('127.0.0.1', P)); s.settimeout(5)
    r = b'GET /ws HTTP/' + ver + b'\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n' % P
    if conn is not None: r += b'Connection: ' + conn + b'\r\n'
    r += b'Sec-WebSocket-Key: ' + key + b'\r\nSec-WebSocket-Version: 13\r\n\r\n'
    s.sendall(r)
    head = b''
    while b'\r\n' not in head:
        x = s.recv(4096)
        if not x: break
        head += x
    s.close()
    return head.split(b'\r\n')[0].decode()
good = base64.b64encode(os.urandom(16))
cases = [('valid (control)', good, b'Upgrade'),
         ('key: 8 bytes base64', base64.b64encode(b'12345678'), b'Upgrade'),
         ('key: not base64', b'!!!not-base64!!!', b'Upgrade'),
         ('Connection: close', good, b'close'),
         ('no Connection header', good, None),
         ('HTTP/1.0 request', good, b'Upgrade', b'1.0')]
res = [(c[0], status(*c[1:])) for c in cases]
for n, st in res: print('%-22s %s' % (n, st))
if ' 101 ' not in res[0][1] + ' ': setup_error('a valid upgrade was not accepted: %s' % res[0][1])
bad = [n for n, st in res[1:] if ' 101 ' in st + ' ']
if bad:
    broken('invalid WebSocket upgrades got 101 Switching Protocols: %s; protocol.md: 426 for "GET /ws without a '
           'valid WebSocket upgrade"; RFC 6455 §4.2.1' % ', '.join(bad))
held('invalid upgrades are refused')
