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

# holds-186: the gestures runner: the command runs as the runner's (unprivileged) user, with the
# argument vector as written (a device name with $(...) and backticks is never run through a shell),
# stdin /dev/null, no descriptor of the client's beyond 0-2, no signal blocked, and inherited
# STROKES_GESTURE_* removed; the daemon itself (root here) starts no process.
try:
    g = mkgroup("advtestg186"); u = mkuser("advtest186", "advtestg186")
    os.chmod(TMP, 0o755)
    src = open(F01, "rb").read()
    evil = src.replace(b"N: Wacom DTH2242 Finger", b"N: Wacom$(touch PWNED1)`touch PWNED2`;touch PWNED3", 1)
    ef = os.path.join(TMP, "evil.evemu"); open(ef, "wb").write(evil)
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  group: advtestg186\n', extra=["--speed", "4"], replay=ef)
    work = os.path.join(TMP, "w"); os.mkdir(work); os.chown(work, u, g)
    probe = ("import os,sys,json\n"
             "fds=[f for f in range(3,1024) if (lambda f: (os.fstat(f), True))(f) if True] if False else []\n"
             "for f in range(3,1024):\n"
             "    try: os.fstat(f); fds.append(f)\n"
             "    except OSError: pass\n"
             "st=open('/proc/self/status').read()\n"
             "blk=[l.split()[1] for l in st.splitlines() if l.startswith('SigBlk')][0]\n"
             "r={'uid':os.getuid(),'argv':sys.argv[1:],'fds':fds,'stdin':os.readlink('/proc/self/fd/0'),'blk':blk,"
             "'env':{k:v for k,v in os.environ.items() if k.startswith('STROKES_GESTURE')}}\n"
             "open(os.path.join(%r,'out.%%d'%%os.getpid()),'w').write(json.dumps(r))\n" % work)
    gy = os.path.join(work, "g.yaml")
    open(gy, "w").write("rules:\n" + "".join("  - kind: %s\n    phase: %s\n    run: [/usr/bin/python3, -I, -S, -c, %s, '$STROKES_GESTURE_KIND', '$(id)']\n" % (k, ph, json.dumps(probe))
                                             for k, ph in [("tap", "end"), ("hold", "begin"), ("swipe", "begin"), ("swipe", "end")]))
    os.chown(gy, u, g)
    def runner():
        env = {"PATH": "/usr/bin:/bin", "HOME": work, "STROKES_GESTURE_KIND": "stale", "STROKES_GESTURE_FOO": "stale2"}
        gp = subprocess.Popen([BIN, "gestures", "--socket", sock, "--config", gy], env=env, cwd=work,
                              stdout=open(os.path.join(work, "g.log"), "wb"), stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline and not [f for f in os.listdir(work) if f.startswith("out.")]: time.sleep(0.1)
        time.sleep(0.5); gp.kill(); gp.wait()
        return [json.load(open(os.path.join(work, f))) for f in os.listdir(work) if f.startswith("out.")]
    res = as_user(u, g, [g], runner)
    if not res or isinstance(res, dict): finish(True, "no gesture command ran: %r %s" % (res, open(os.path.join(work, "g.log"), errors="replace").read()[-300:]))
    bad = []
    for r in res:
        if r["uid"] != u: bad.append("command ran as uid %r" % r["uid"])
        if r["argv"] != ["$STROKES_GESTURE_KIND", "$(id)"]: bad.append("argv altered: %r" % r["argv"])
        if r["fds"]: bad.append("inherited descriptors %r" % r["fds"])
        if r["stdin"] != "/dev/null": bad.append("stdin %s" % r["stdin"])
        if int(r["blk"], 16): bad.append("signals blocked %s" % r["blk"])
        if r["env"].get("STROKES_GESTURE_KIND") == "stale" or "STROKES_GESTURE_FOO" in r["env"]: bad.append("stale STROKES_GESTURE_* kept")
        if "$(touch PWNED1)" not in r["env"].get("STROKES_GESTURE_DEVICE_NAME", ""): bad.append("device name env %r" % r["env"].get("STROKES_GESTURE_DEVICE_NAME"))
    for root in [work, TMP, "/"]:
        for n in ["PWNED1", "PWNED2", "PWNED3"]:
            if os.path.exists(os.path.join(root, n)): bad.append("%s created in %s" % (n, root))
    if bad: finish(True, "; ".join(sorted(set(bad))))
    finish(False, "%d gesture commands ran as uid %d with the argv verbatim, stdin /dev/null, no extra fds, no blocked signals, no stale vars, no shell" % (len(res), u))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
