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

# holds-182: single instance. A second daemon (root, or another user) on a live daemon's socket
# exits without touching it; a regular file, a symlink to a file and a symlink to a live socket
# at the socket path are not replaced; the lock is 0600 and O_NOFOLLOW; at exit a daemon removes its
# socket only if it is still the one it bound; a second daemon against a stopped daemon whose lock
# was deleted and whose backlog is full does not take the socket.
try:
    g = mkgroup("advtestg182h"); u = mkuser("advtest182h", "advtestg182h")
    d = os.path.join(TMP, "shared"); os.mkdir(d); os.chmod(d, 0o1777)
    sock = os.path.join(d, "s.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\n')
    ino = os.lstat(sock).st_ino; bad = []
    lst = os.lstat(sock + ".lock")
    if lst.st_mode & 0o077: bad.append("lock mode %o" % (lst.st_mode & 0o777))
    cfg2 = os.path.join(TMP, "c2.yaml"); open(cfg2, "w").write(""); os.chmod(cfg2, 0o644)
    def second():
        r = subprocess.run([BIN, "daemon", "--replay", F01, "--socket", sock, "--config", cfg2], capture_output=True, text=True, timeout=20)
        return r.returncode
    rc = as_user(u, g, [g], second)
    if rc == 0 or os.lstat(sock).st_ino != ino: bad.append("other user's second daemon rc %r, socket replaced %r" % (rc, os.lstat(sock).st_ino != ino))
    q = start_daemon(sock, "", wait=False); q.wait(20)
    if q.returncode != 69 or os.lstat(sock).st_ino != ino: bad.append("root second daemon rc %r" % q.returncode)
    hello = first_messages(sock, 1)
    if not hello or hello[0].get("type") != "hello": bad.append("live daemon lost its socket: %r" % hello)
    # path variants
    victim = os.path.join(TMP, "victim"); open(victim, "w").write("x")
    for kind in ["file", "symlink-file", "symlink-live"]:
        path = os.path.join(TMP, "v-%s.sock" % kind)
        if kind == "file": open(path, "w").write("x")
        elif kind == "symlink-file": os.symlink(victim, path)
        else: os.symlink(sock, path)
        r = start_daemon(path, "", wait=False); r.wait(20)
        if r.returncode == 0 or not os.path.lexists(path) or (kind != "file" and not os.path.islink(path)):
            bad.append("%s at the socket path: rc %r, replaced" % (kind, r.returncode))
    if open(victim).read() != "x": bad.append("victim changed")
    # a lock symlink is not followed
    path = os.path.join(TMP, "l.sock"); target = os.path.join(TMP, "lt"); os.symlink(target, path + ".lock")
    r = start_daemon(path, "", wait=False); r.wait(20)
    if os.path.exists(target): bad.append("lock symlink followed: created %s" % target)
    # exit removes only its own file
    path = os.path.join(TMP, "own.sock"); r = start_daemon(path, "")
    os.rename(path, path + ".old"); other = socket.socket(socket.AF_UNIX); other.bind(path)
    r.terminate(); r.wait(20)
    if not os.path.exists(path): bad.append("exiting daemon removed a socket file it did not bind")
    other.close()
    # stopped daemon, lock deleted, backlog full
    os.kill(p.pid, signal.SIGSTOP); os.unlink(sock + ".lock"); held = []
    for i in range(2000):
        s = socket.socket(socket.AF_UNIX); s.setblocking(False)
        try: s.connect(sock); held.append(s)
        except OSError: s.close(); break
    t = start_daemon(sock, "", wait=False)
    try: t.wait(6)
    except subprocess.TimeoutExpired: pass
    if not os.path.lexists(sock) or os.lstat(sock).st_ino != ino: bad.append("third daemon replaced a stopped daemon's socket (backlog full, lock deleted)")
    if t.poll() is None: t.kill(); t.wait()
    os.kill(p.pid, signal.SIGCONT)
    for s in held: s.close()
    if bad: finish(True, "; ".join(bad))
    finish(False, "live socket kept against root's and another user's second daemon; files, symlinks, lock symlinks not followed/replaced; exit removes only its own socket; stopped daemon not hijacked")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
