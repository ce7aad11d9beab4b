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

# holds-188: allow-list edge cases and descriptors sent to the daemon. Empty lists fail closed
# (allowUids: [] admits only root); a peer's supplementary groups count up to 128 and, past 128, only
# its primary group (as documented), without crashing the daemon even at 65536 groups; descriptors a
# client sends with SCM_RIGHTS are not installed in the daemon (no descriptor exhaustion).
import array
try:
    bad = []
    g = mkgroup("advtestg188"); u = mkuser("advtest188", "advtestg188")
    for c in ['  allowUids: []\n', '  allowGids: []\n', '  allowUids: [99999]\n  allowGids: []\n']:
        sock = os.path.join(TMP, "s%d.sock" % len(PROCS))
        p = start_daemon(sock, 'socket:\n  mode: "0666"\n' + c)
        r = as_user(u, g, [g], lambda: [m.get("error", m.get("type")) for m in first_messages(sock, 1)])
        if r != ["forbidden"]: bad.append("%r admitted uid %d: %r" % (c.strip(), u, r))
        p.kill(); p.wait()
    sock = os.path.join(TMP, "g.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\n  allowGids: [60000]\n')
    for n, want in [(1, "hello"), (128, "hello"), (129, "forbidden"), (65536, "forbidden")]:
        gl = list(range(61000, 61000 + n - 1)) + [60000]
        r = as_user(50001, 50001, gl, lambda: [m.get("error", m.get("type")) for m in first_messages(sock, 1)])
        if r != [want]: bad.append("%d groups, allowed one last: %r (documented: %s)" % (n, r, want))
        if p.poll() is not None: bad.append("daemon died at %d groups" % n); break
    n0 = len(os.listdir("/proc/%d/fd" % p.pid))
    s = connect(sock); read_lines(s, 1)
    fds = [os.open("/dev/null", os.O_RDONLY) for i in range(200)]
    for i in range(100):
        s.sendmsg([b'{"id":%d,"request":"ping"}\n' % i], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    rr = read_lines(s, 100, 10)
    n1 = len(os.listdir("/proc/%d/fd" % p.pid))
    if n1 - n0 > 5 or len(rr) != 100: bad.append("20000 descriptors sent: daemon fds %d -> %d, %d replies" % (n0, n1, len(rr)))
    for f in fds: os.close(f)
    if bad: finish(True, "; ".join(bad))
    finish(False, "empty allow-lists fail closed; group counting as documented (128); SCM_RIGHTS to the daemon discarded")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
