#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 186: the daemon reads http.token from a file every local user can read (0644/0666) and serves a
# listener on 0.0.0.0 with it, with no warning: every local account has the token, so the TCP
# listener is open to all of them as if it had none.
# docs/security.md: "give it http.token (a file readable only by those who may)"; the daemon already
# refuses an empty token and a non-loopback listener without one.
def port_free():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); n = s.getsockname()[1]; s.close(); return n
try:
    g = mkgroup("advtestg186t"); u = mkuser("advtest186t", "advtestg186t")
    tok = os.path.join(TMP, "http-token"); open(tok, "w").write("s3cretTOKEN\n"); os.chmod(tok, 0o644)
    port = port_free()
    p = start_daemon(os.path.join(TMP, "s.sock"), "http:\n  listen: 0.0.0.0:%d\n  token: %s\n" % (port, tok))
    t = log_of(p)
    warned = any(("token" in l.lower() or "http-token" in l) and any(w in l.lower() for w in ["readable", "permission", "insecure", "unsafe", "mode"])
                 for l in t.splitlines() if " warning " in l or " error " in l or " critical " in l)
    if p.poll() is None and not warned:
        def steal():
            tk = open(tok).read().strip()
            return status(http_tcp(port, "GET /live HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nAuthorization: Bearer %s\r\nConnection: close\r\n\r\n" % (port, tk)))
        st = as_user(u, g, [g], steal)
        finish(True, "daemon serves 0.0.0.0:%d with a token file of mode 0644 and no warning; uid %d read it and GET /live -> %s" % (port, u, st))
    finish(False, "world-readable token file refused or warned about (rc %r)" % p.poll())
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
