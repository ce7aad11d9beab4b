#!/usr/bin/env python3
import os, sys, subprocess, tempfile, time, socket, json, shutil, signal, grp, pwd
import encodings.idna  # preloaded: children that drop to another uid may not read the interpreter's tree

BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', ".build/debug/strokes"))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
F01 = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
TMP = tempfile.mkdtemp(prefix="advstrokes-", dir="/tmp")
os.chmod(TMP, 0o755)
PROCS, USERS, GROUPS = [], [], []

def descendants(pid):
    out = []
    try:
        for t in os.listdir("/proc/%d/task" % pid):
            for c in open("/proc/%d/task/%s/children" % (pid, t)).read().split():
                out += [int(c)] + descendants(int(c))
    except OSError: pass
    return out

def cleanup():
    for p in PROCS:
        kids = descendants(p.pid) if p.poll() is None else []
        for k in kids:
            try: os.kill(k, signal.SIGKILL)
            except OSError: pass
        if p.poll() is None:
            p.kill()
            try: p.wait(5)
            except Exception: pass
    for u in USERS: subprocess.run(["userdel", u], stderr=subprocess.DEVNULL)
    for g in GROUPS: subprocess.run(["groupdel", g], stderr=subprocess.DEVNULL)
    shutil.rmtree(TMP, ignore_errors=True)

def finish(broken, msg):
    cleanup()
    print(("BROKEN: " if broken else "HELD: ") + msg)
    sys.exit(1 if broken else 0)

def mkgroup(name):
    subprocess.run(["groupdel", name], stderr=subprocess.DEVNULL)
    subprocess.run(["groupadd", name], check=True); GROUPS.append(name)
    return grp.getgrnam(name).gr_gid

def mkuser(name, primary, groups=()):
    subprocess.run(["userdel", name], stderr=subprocess.DEVNULL)
    cmd = ["useradd", "-M", "-N", "-g", primary, "-s", "/bin/false"]
    if groups: cmd += ["-G", ",".join(groups)]
    subprocess.run(cmd + [name], check=True); USERS.append(name)
    return pwd.getpwnam(name).pw_uid

def start_daemon(sock, config_text=None, extra=(), replay=None, wait=True):
    cfg = os.path.join(TMP, "strokes-%d.yaml" % len(PROCS))
    with open(cfg, "w") as f: f.write(config_text or "")
    log = open(os.path.join(TMP, "daemon-%d.log" % len(PROCS)), "wb")
    args = [BIN, "daemon", "--replay", replay or F01, "--socket", sock, "--config", cfg] + list(extra)
    p = subprocess.Popen(args, stdout=log, stderr=log)
    p.logpath = log.name; p.cfg = cfg
    PROCS.append(p)
    if wait:
        deadline = time.time() + 15
        while time.time() < deadline:
            if p.poll() is not None: break
            if "ready" in open(p.logpath, errors="replace").read(): return p
            time.sleep(0.05)
        if p.poll() is None: return p
    return p

def log_of(p): return open(p.logpath, errors="replace").read()

def as_user(uid, gid, groups, fn):
    """run fn() in a forked child with those creds; returns fn's picklable result via pipe"""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.setgroups(list(groups)); os.setgid(gid); os.setuid(uid)
            res = fn()
        except Exception as e:
            res = {"exc": repr(e)}
        os.write(w, json.dumps(res).encode()); os.close(w); os._exit(0)
    os.close(w)
    data = b""
    while True:
        b = os.read(r, 65536)
        if not b: break
        data += b
    os.close(r); os.waitpid(pid, 0)
    return json.loads(data or b"null")

def read_lines(s, n=1, timeout=5.0):
    s.settimeout(0.2); buf = b""; out = []; deadline = time.time() + timeout
    while len(out) < n and time.time() < deadline:
        try: b = s.recv(65536)
        except socket.timeout: continue
        except OSError as e: out.append({"oserror": repr(e)}); break
        if not b: out.append({"eof": True}); break
        buf += b
        while b"\n" in buf and len(out) < n:
            l, buf = buf.split(b"\n", 1); out.append(json.loads(l))
    return out

def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(path); return s

def first_messages(path, n=2, req=None):
    try:
        s = connect(path)
    except OSError as e:
        return [{"connectError": e.errno}]
    if req: s.sendall((json.dumps(req) + "\n").encode())
    out = read_lines(s, n); s.close(); return out

def http_unix(path, target="/devices", host="x", extra=""):
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    s.sendall(("GET %s HTTP/1.1\r\nHost: %s\r\n%sConnection: close\r\n\r\n" % (target, host, extra)).encode())
    return recv_all(s)

def recv_all(s, timeout=5.0):
    s.settimeout(0.5); d = b""; deadline = time.time() + timeout
    while time.time() < deadline:
        try: b = s.recv(65536)
        except socket.timeout: continue
        except OSError: break
        if not b: break
        d += b
    s.close(); return d.decode(errors="replace")

def http_tcp(port, raw):
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(raw.encode() if isinstance(raw, str) else raw)
    return recv_all(s)

def status(resp): return resp.split("\r\n", 1)[0]

def http_port(p):
    import re
    deadline = time.time() + 10
    while time.time() < deadline:
        m = re.search(r"http=127\.0\.0\.1:(\d+) ", log_of(p))
        if m: return int(m.group(1))
        time.sleep(0.05)
    raise RuntimeError("no http port in log")

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
