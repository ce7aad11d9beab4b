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

# holds-187: the socket's mode is set before it listens (under umask 0 the bound file is 0777 for
# a moment: strace holds the daemon there, and another user's connect is refused, not served); an
# explicit socket.group that does not exist stops the daemon (78); a stalled standard error (a log
# pipe nobody reads) while another user floods refused connections and refused HTTP requests does not
# stop the event loop, and the dropped lines are counted.
import re
try:
    bad = []
    g = mkgroup("advtestg187"); u = mkuser("advtest187", "advtestg187")
    if shutil.which("strace"):
        sock = os.path.join(TMP, "m.sock"); logp = os.path.join(TMP, "m.log")
        old = os.umask(0)
        p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=chmod,fchmodat,fchmod", "-e", "inject=chmod,fchmodat,fchmod:delay_enter=2000000",
                              BIN, "daemon", "--replay", F01, "--socket", sock, "--config", "/dev/null"], stdout=open(logp, "wb"), stderr=subprocess.STDOUT)
        os.umask(old); PROCS.append(p)
        deadline = time.time() + 10
        while time.time() < deadline and not os.path.exists(sock): time.sleep(0.005)
        def try_connect():
            try:
                s = socket.socket(socket.AF_UNIX); s.connect(sock); s.settimeout(3)
                try: d = s.recv(200)
                except socket.timeout: d = b""
                return {"connected": True, "data": d.decode(errors="replace")}
            except OSError as e: return {"errno": e.errno}
        r = as_user(u, g, [g], try_connect)
        if r.get("connected") and "hello" in r.get("data", ""):
            bad.append("another user was served before the mode was set: %r" % r)
        for k in descendants(p.pid):
            try: os.kill(k, signal.SIGKILL)
            except OSError: pass
        p.kill(); p.wait()
    sock = os.path.join(TMP, "g.sock")
    q = start_daemon(sock, "socket:\n  group: advtestnosuchgroup187\n", wait=False)
    try: q.wait(15)
    except subprocess.TimeoutExpired: pass
    if q.returncode != 78: bad.append("nonexistent explicit group: rc %r" % q.poll())
    if q.poll() is None: q.kill(); q.wait()
    # stalled stderr
    sock = os.path.join(TMP, "s.sock"); cfg = os.path.join(TMP, "c.yaml")
    open(cfg, "w").write('socket:\n  mode: "0666"\n  allowUids: [0]\n')
    r, w = os.pipe()
    d = subprocess.Popen([BIN, "daemon", "--replay", F01, "--socket", sock, "--config", cfg, "--http", "127.0.0.1:0"], stdout=w, stderr=w)
    PROCS.append(d); os.close(w)
    buf = b""; deadline = time.time() + 10
    while b"ready" not in buf and time.time() < deadline: buf += os.read(r, 4096)
    port = int(re.search(rb"http=127\.0\.0\.1:(\d+) ", buf).group(1))
    def flood():
        for i in range(5000):
            try: s = socket.socket(socket.AF_UNIX); s.connect(sock); s.close()
            except OSError: pass
        for i in range(1500):
            try: http_tcp(port, "GET /devices HTTP/1.1\r\nHost: evil\r\nConnection: close\r\n\r\n")
            except OSError: pass
        return 1
    as_user(u, g, [g], flood)
    t1 = time.time(); res = first_messages(sock, 2, {"id": 1, "request": "ping"}); dt = time.time() - t1
    if [m.get("type") for m in res] != ["hello", "reply"] or dt > 2: bad.append("root ping with stderr stalled: %r in %.2fs" % (res, dt))
    os.set_blocking(r, False); total = b""; idle = 0
    while idle < 3:
        try:
            b = os.read(r, 1 << 20)
            if not b: break
            total += b; idle = 0
        except BlockingIOError: idle += 1; time.sleep(0.3)
    if b"dropped" not in total: bad.append("no 'log line(s) dropped' after the stall (%d bytes of log)" % len(total))
    if bad: finish(True, "; ".join(bad))
    finish(False, "mode set before listen, missing explicit group refused (78), stalled log does not block the loop and drops are counted")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
