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

# holds-189: per-uid accounting does not leak (a uid that closed, reset, half-closed, overflowed
# its line and its limit 300 times still gets its full maxClientsPerUid), and descriptor exhaustion
# by three uids (hard RLIMIT_NOFILE 48) leaves the connected clients served, the daemon not
# spinning (accept backs off) and both listeners accepting again once descriptors come back.
import struct
try:
    bad = []
    g = mkgroup("advtestg189"); gid = grp.getgrnam("advtestg189").gr_gid
    us = [mkuser("advtest189%d" % i, "advtestg189") for i in range(3)]
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\nmaxClientsPerUid: 4\nmaxLineLength: 256\n', extra=["--speed", "10"])
    def churn():
        for i in range(40):
            s = connect(sock); s.close()
            s = connect(sock); s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); s.close()
            s = connect(sock); s.shutdown(socket.SHUT_WR); read_lines(s, 3, 2); s.close()
            s = connect(sock); s.sendall(b"x" * 1000 + b"\n"); read_lines(s, 3, 2); s.close()
            s = connect(sock); s.sendall(b'{"request":"subscribe"}\n'); s.close()
            ss = [connect(sock) for k in range(6)]
            for s in ss: s.close()
        deadline = time.time() + 10
        while time.time() < deadline:
            ss = [connect(sock) for k in range(4)]
            res = [read_lines(s, 1)[0].get("error", "hello") for s in ss]
            for s in ss: s.close()
            if res == ["hello"] * 4: return res
            time.sleep(0.2)
        return res
    r = as_user(us[0], gid, [gid], churn)
    if r != ["hello"] * 4: bad.append("after churn uid %d gets %r (limit 4)" % (us[0], r))
    p.kill(); p.wait()
    logp = os.path.join(TMP, "d.log"); cfg = os.path.join(TMP, "c.yaml"); open(cfg, "w").write('socket:\n  mode: "0666"\n')
    q = subprocess.Popen(["prlimit", "--nofile=48:48", BIN, "daemon", "--replay", F01, "--socket", sock + "2", "--config", cfg,
                          "--http", "127.0.0.1:0", "--speed", "5"], stdout=open(logp, "wb"), stderr=subprocess.STDOUT)
    PROCS.append(q); q.logpath = logp
    deadline = time.time() + 10
    while time.time() < deadline and "ready" not in open(logp).read(): time.sleep(0.05)
    port = http_port(q)
    root = connect(sock + "2"); read_lines(root, 1)
    kids = []
    for uid in us:
        rr, w = os.pipe(); pid = os.fork()
        if pid == 0:
            os.setgroups([]); os.setgid(gid); os.setuid(uid); ss = []
            for i in range(32):
                try: ss.append(connect(sock + "2"))
                except OSError: break
            os.write(w, b"1"); time.sleep(40); os._exit(0)
        os.read(rr, 1); kids.append(pid)
    deadline = time.time() + 5
    while time.time() < deadline and "cannot accept" not in open(logp).read(): time.sleep(0.1)
    if "cannot accept" not in open(logp).read(): bad.append("descriptors were not exhausted (test setup)")
    cpu0 = sum(int(x) for x in open("/proc/%d/stat" % q.pid).read().split()[13:15]); t0 = time.time()
    root.sendall(b'{"id":1,"request":"ping"}\n')
    got = read_lines(root, 1, 5)
    if not got or got[0].get("id") != 1: bad.append("connected root client not served during exhaustion: %r" % got)
    time.sleep(2)
    cpu = sum(int(x) for x in open("/proc/%d/stat" % q.pid).read().split()[13:15]) - cpu0
    hz = os.sysconf("SC_CLK_TCK")
    if cpu / hz > 0.5 * (time.time() - t0): bad.append("daemon spins during exhaustion: %.2fs CPU in %.2fs" % (cpu / hz, time.time() - t0))
    for pid in kids: os.kill(pid, 9); os.waitpid(pid, 0)
    deadline = time.time() + 5; ok = False
    while time.time() < deadline and not ok:
        h = first_messages(sock + "2", 1)
        st = status(http_tcp(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port))
        ok = bool(h) and h[0].get("type") == "hello" and "200" in st
        time.sleep(0.2)
    if not ok: bad.append("listeners did not recover after the descriptors came back: %r %s" % (h, st))
    if q.poll() is not None: bad.append("daemon exited (%r)" % q.returncode)
    if bad: finish(True, "; ".join(bad))
    finish(False, "per-uid counts do not leak; descriptor exhaustion backs off, keeps serving, recovers")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
