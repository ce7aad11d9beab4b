#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-185: text from outside is never raw: a recording whose device name and file name carry ESC,
# BEL, C1 (U+009B), RLO (U+202E) reaches the daemon's log escaped, the socket's JSON escapes control
# characters, errors quote at most 40 characters, and /render.svg XML-escapes a name full of markup.
try:
    bad = []
    src = open(F01, "rb").read()
    name = b"Wac\x1b]0;PWN\x07om\x1b[2J\xe2\x80\xaeFinger\xc2\x9b<script>alert(1)</script>\"'&"
    evil = src.replace(b"N: Wacom DTH2242 Finger", b"N: " + name, 1)
    ef = os.path.join(TMP, "evil\x1b[31m\xe2\x80\xae.evemu"); open(ef, "wb").write(evil)
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, "", extra=["--http", "127.0.0.1:0"], replay=ef)
    port = http_port(p); H = "127.0.0.1:%d" % port
    s = connect(sock); raw = b""; s.settimeout(0.5)
    s.sendall(b'{"id":1,"request":"\\u001b]0;Z\\u0007' + b"A" * 200 + b'"}\n{"id":2,"request":"devices"}\n')
    deadline = time.time() + 5
    while time.time() < deadline and raw.count(b"\n") < 3:
        try: raw += s.recv(65536)
        except socket.timeout: pass
    s.close()
    if any(c in raw for c in [b"\x1b", b"\x07"]): bad.append("raw C0 control characters on the socket (JSON escapes them)")
    lines = [json.loads(l) for l in raw.split(b"\n") if l.strip()]
    err = [l for l in lines if l.get("type") == "error"]
    if not err or len(err[0]["message"]) > 80: bad.append("error message not cut: %r" % (err[:1],))
    for r in [b"GET /%1b%5d0;X%07 HTTP/1.1\r\nHost: evil\r\nConnection: close\r\n\r\n",
              b"GET /devices HTTP/1.1\r\nHost: " + H.encode() + b"\r\nOrigin: http://e\xe2\x80\xaevil\r\nConnection: close\r\n\r\n"]:
        http_tcp(port, r)
    svg = http_tcp(port, "GET /render.svg HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n" % H)
    if "<script" in svg or "alert(1)</" in svg: bad.append("markup raw in /render.svg")
    time.sleep(0.5)
    lg = open(p.logpath, "rb").read()
    rawl = [l[:120] for l in lg.split(b"\n") if any(c in l for c in [b"\x1b", b"\x07", b"\xe2\x80\xae", b"\xc2\x9b"])]
    if rawl: bad.append("raw control/bidi characters in the log: %r" % rawl[:2])
    if b"\\u{1b}" not in lg: bad.append("device name not shown escaped in the log")
    if bad: finish(True, "; ".join(bad))
    finish(False, "device/file names escaped in the log, JSON escapes controls, errors cut, SVG escapes markup")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
