#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-184: HTTP Host/Origin/CORS without a token: Host must name the listener (evil, suffix
# tricks, bare IP without port, trailing dot, lists refused); Origin must be the listener's own
# (null, other sites, https, port-less refused); repeated Host/Origin (any case) 400; no response
# carries Access-Control-* (JSON, SSE, WebSocket 101, OPTIONS); a Unix listener allows no Origin.
import base64
try:
    bad = []
    sock = os.path.join(TMP, "s.sock"); hs = os.path.join(TMP, "h.sock")
    p = start_daemon(sock, "", extra=["--http", "127.0.0.1:0"])
    port = http_port(p); H = "127.0.0.1:%d" % port
    def rq(path="/devices", hdrs=None, method="GET", host=True):
        h = (["Host: " + H] if host else []) + (hdrs or [])
        return http_tcp(port, "%s %s HTTP/1.1\r\n%s\r\nConnection: close\r\n\r\n" % (method, path, "\r\n".join(h)))
    for h, want in [("evil.example", "403"), ("127.0.0.1", "403"), ("%s.evil.example" % H, "403"), ("localhost.:%d" % port, "403"),
                    ("evil.example:%d" % port, "403"), ("%s@evil.example" % H, "403"), ("%s,evil.example" % H, "403"),
                    ("localhost:%d" % port, "200"), ("[::1]:%d" % port, "200")]:
        s = status(http_tcp(port, "GET /devices HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % h))
        if want not in s: bad.append("Host %s -> %s (want %s)" % (h, s, want))
    for o, want in [("null", "403"), ("http://evil.example", "403"), ("http://%s.evil.example" % H, "403"), ("https://%s" % H, "403"),
                    ("http://127.0.0.1", "403"), ("http://%s" % H, "200"), ("http://localhost:%d" % port, "200")]:
        s = status(rq(hdrs=["Origin: " + o]))
        if want not in s: bad.append("Origin %s -> %s (want %s)" % (o, s, want))
    for hd in [["host: evil.example"], ["Origin: http://%s" % H, "origin: http://evil.example"]]:
        s = status(rq(hdrs=hd))
        if "400" not in s: bad.append("repeated %r -> %s" % (hd, s))
    if "400" not in status(rq(host=False)): bad.append("no Host accepted")
    key = base64.b64encode(os.urandom(16)).decode()
    ws_evil = rq("/ws", ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13", "Sec-WebSocket-Key: " + key, "Origin: http://evil.example"])
    if "403" not in status(ws_evil): bad.append("cross-site WebSocket -> %s" % status(ws_evil))
    resps = [rq(), rq("/stats", ["Origin: http://%s" % H]), rq("/devices", ["Origin: http://evil.example"]),
             rq("/devices", ["Origin: http://evil.example", "Access-Control-Request-Method: GET"], method="OPTIONS")]
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(3)
    s.sendall(("GET /events HTTP/1.1\r\nHost: %s\r\nOrigin: http://%s\r\n\r\n" % (H, H)).encode()); resps.append(s.recv(4096).decode(errors="replace")); s.close()
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(3)
    s.sendall(("GET /ws HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\nOrigin: http://%s\r\n\r\n" % (H, key, H)).encode())
    resps.append(s.recv(4096).decode(errors="replace")); s.close()
    for r in resps:
        if "access-control-" in r.split("\r\n\r\n")[0].lower(): bad.append("CORS header in: " + r.split("\r\n")[0])
    p.kill(); p.wait()
    q = start_daemon(os.path.join(TMP, "u.sock"), "http:\n  listen: %s\n" % hs)
    for o in ["http://evil.example", "null", "http://localhost"]:
        s = status(http_unix(hs, "/devices", "evil.example", "Origin: %s\r\n" % o))
        if "403" not in s: bad.append("unix listener Origin %s -> %s" % (o, s))
    if bad: finish(True, "; ".join(bad))
    finish(False, "Host, Origin, duplicate-header and CORS rules hold on TCP and Unix listeners")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
