#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-183: HTTP binding and token. Any non-loopback listen address without http.token stops the
# daemon (exit 78: 0.0.0.0, [::], 0, 0x0, [::ffff:0.0.0.0], [::ffff:127.0.0.1], ...); an empty
# token file is refused; with a token every endpoint but /, its assets and /healthz answers 401
# without it (GET and HEAD, /render.svg and percent-encoded paths included), wrong/prefix/duplicate
# tokens fail, a second Authorization header is 400, and Origin is still checked with a token.
def port_free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); n = s.getsockname()[1]; s.close(); return n
try:
    bad = []
    for addr in ["0.0.0.0", "[::]", "0", "0x0", "[::ffff:0.0.0.0]", "[0:0:0:0:0:0:0:0]"]:
        sock = os.path.join(TMP, "a%d.sock" % len(PROCS))
        p = start_daemon(sock, "", extra=["--http", "%s:%d" % (addr, port_free())], wait=False)
        try: p.wait(15)
        except subprocess.TimeoutExpired: pass
        if p.returncode != 78: bad.append("%s without token: rc %r" % (addr, p.poll()))
        if p.poll() is None: p.kill(); p.wait()
    tok = os.path.join(TMP, "tok"); open(tok, "w").write("\n")
    port = port_free()
    p = start_daemon(os.path.join(TMP, "e.sock"), "http:\n  listen: 0.0.0.0:%d\n  token: %s\n" % (port, tok), wait=False)
    try: p.wait(15)
    except subprocess.TimeoutExpired: pass
    if p.returncode != 78: bad.append("empty token file accepted (rc %r)" % p.poll())
    if p.poll() is None: p.kill(); p.wait()
    open(tok, "w").write("s3cretTOKEN\n"); port = port_free()
    p = start_daemon(os.path.join(TMP, "t.sock"), "http:\n  listen: 0.0.0.0:%d\n  token: %s\n" % (port, tok))
    H = "127.0.0.1:%d" % port
    def st(path, hdrs="", method="GET"):
        return status(http_tcp(port, "%s %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n" % (method, path, H, hdrs)))
    for path in ["/devices", "/render.svg", "/stats", "/live", "/history", "/events", "/ws", "/%72ender.svg", "/%64evices"]:
        for m in ["GET", "HEAD"]:
            s = st(path, method=m)
            if "401" not in s: bad.append("%s %s without token: %s" % (m, path, s))
    for path in ["/healthz", "/", "/page.js", "/page.css"]:
        if "200" not in st(path): bad.append("%s with no token: %s" % (path, st(path)))
    for hdr, want in [("Authorization: Bearer s3cretTOKEN\r\n", "200"), ("Authorization: Bearer s3cretTOKE\r\n", "401"),
                      ("Authorization: Bearer s3cretTOKENx\r\n", "401"), ("Authorization: Bearer \r\n", "401"),
                      ("Authorization: Basic czNjcmV0VE9LRU4=\r\n", "401"),
                      ("Authorization: Bearer s3cretTOKEN\r\nauthorization: Bearer x\r\n", "400"),
                      ("Authorization: Bearer s3cretTOKEN\r\nOrigin: http://evil.example\r\n", "403")]:
        s = st("/devices", hdr)
        if want not in s: bad.append("%r -> %s (want %s)" % (hdr.strip(), s, want))
    for q, want in [("token=s3cretTOKEN", "200"), ("token=s3cretTOKE", "401"), ("token=", "401"), ("token=x&token=s3cretTOKEN", "401")]:
        s = st("/devices?" + q)
        if want not in s: bad.append("?%s -> %s (want %s)" % (q, s, want))
    if bad: finish(True, "; ".join(bad))
    finish(False, "non-loopback without token and empty tokens refused (78); token required on every data endpoint incl. HEAD and encoded paths; duplicates 400; Origin still checked")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
