#!/usr/bin/env python3
"""A request whose target is in absolute form (`GET http://127.0.0.1:PORT/healthz HTTP/1.1`, as a
client configured to use the daemon as its proxy, or some proxies, send) gets 404 "no such
endpoint: http://127.0.0.1:PORT/healthz" instead of the endpoint.

RFC 9112 §3.2.2: "a server MUST accept the absolute-form in requests even though most HTTP/1.1
clients will only send the absolute-form to a proxy"; docs/protocol.md: "404 | unknownRequest | any
other path" (the path here is /healthz)."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17889
d = Daemon(http='127.0.0.1:%d' % P)
def get(target):
    s = socket.create_connection(('127.0.0.1', P)); s.settimeout(5)
    s.sendall(b'GET ' + target + b' HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n' % P)
    o = b''
    while True:
        x = s.recv(65536)
        if not x: break
        o += x
    return o.split(b'\r\n')[0].decode(), o.split(b'\r\n\r\n', 1)[-1][:100].decode('utf-8', 'replace')
origin = get(b'/healthz')
absolute = get(b'http://127.0.0.1:%d/healthz' % P)
print('origin-form  ', origin); print('absolute-form', absolute)
if ' 200 ' not in origin[0]: setup_error('GET /healthz: %s' % (origin,))
if ' 200 ' not in absolute[0]:
    broken('GET http://127.0.0.1:%d/healthz (absolute form, matching Host) got %s %s; RFC 9112 §3.2.2: a server MUST '
           'accept the absolute-form' % (P, absolute[0], absolute[1].strip()))
held('absolute-form targets are served as their path')
