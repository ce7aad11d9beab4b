#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: without a token, an HTTP request with NO Host header is served (200, stroke data).
# Promise (security.md "HTTP"): "Without a token, `Host` must name the listener, so a site whose name is
# rebound to 127.0.0.1 (DNS rebinding) is refused."; protocol.md "Access": "Without a token, `Host` must
# name the listener (or an allowed origin's host)"; 403 "(no token) a `Host` that does not name the listener".
# A missing Host names nothing (and HTTP/1.1 requires it: RFC 9112 §3.2 says answer 400).
PORT = 17790 + os.getpid() % 100
d = Daemon(replay=REC03, loop=True, http='127.0.0.1:%d' % PORT)
time.sleep(0.5)
def get(req):
    s = socket.create_connection(('127.0.0.1', PORT)); s.settimeout(5)
    s.sendall(req); out = b''
    try:
        while True:
            x = s.recv(65536)
            if not x: break
            out += x
    except socket.timeout: pass
    return out
ok = get(b'GET /stats HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n' % PORT)
evil = get(b'GET /stats HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')
none11 = get(b'GET /history HTTP/1.1\r\nConnection: close\r\n\r\n')
none10 = get(b'GET /live HTTP/1.0\r\n\r\n')
for n, r in [('Host ok', ok), ('Host evil', evil), ('no Host, HTTP/1.1', none11), ('no Host, HTTP/1.0', none10)]:
    print('%-18s %s' % (n, r.split(b'\r\n')[0].decode()))
if b' 200 ' not in ok.split(b'\r\n')[0] or b' 403 ' not in evil.split(b'\r\n')[0]: setup_error('baseline Host check not as documented')
bad = [n for n, r in [('HTTP/1.1 without Host', none11), ('HTTP/1.0 without Host', none10)] if b' 200 ' in r.split(b'\r\n')[0]]
if bad:
    broken('%s answered 200 with stroke data although no Host names the listener (no token configured)' % ' and '.join(bad))
held('requests without Host refused')
