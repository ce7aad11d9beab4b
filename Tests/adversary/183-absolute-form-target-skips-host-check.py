#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 183: the DNS-rebinding Host check judges the Host header even when the request line carries an
# absolute-form target naming another host; RFC 9112 3.2.2 says the target's authority then IS the
# host (a recipient MUST ignore Host). "GET http://evil.example/devices" with "Host: 127.0.0.1:PORT"
# gets 200, though its host does not name the listener.
# docs/security.md: "Without a token, Host must name the listener, so a site whose name is rebound
# to 127.0.0.1 (DNS rebinding) is refused; a request that repeats Host ... gets 400 (the check would
# judge one, a proxy might act on the other)."
try:
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, "", extra=["--http", "127.0.0.1:0"])
    port = http_port(p); H = "127.0.0.1:%d" % port
    ok = http_tcp(port, "GET /devices HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % H)
    bad_host = http_tcp(port, "GET /devices HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
    if "200" not in status(ok) or "403" not in status(bad_host):
        finish(True, "baseline unexpected: %s / %s" % (status(ok), status(bad_host)))
    absf = http_tcp(port, "GET http://evil.example/devices HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % H)
    if "200" in status(absf) and '"request":"devices"' in absf:
        finish(True, "GET http://evil.example/devices with Host: %s -> %s with the devices reply; "
               "Host: evil.example alone -> %s" % (H, status(absf), status(bad_host)))
    finish(False, "absolute-form target naming another host refused: " + status(absf))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
