#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 182: PATH.lock is trusted whoever owns it: another user who can write the socket's directory
# (a shared sticky directory such as /tmp) pre-creates PATH.lock as their own 0644 file and holds
# a shared flock on it: the root daemon says "another daemon holds PATH.lock" and exits 69.
# A FIFO at PATH.lock makes it hang in open() before it ever listens.
# docs/security.md table: "hold the daemon's lock so it cannot start | PATH.lock is its owner's alone
# (0600) | nobody else can open it to lock it".
import fcntl
try:
    g = mkgroup("advtestg182"); u = mkuser("advtest182", "advtestg182")
    d = os.path.join(TMP, "shared"); os.mkdir(d); os.chmod(d, 0o1777)
    sock = os.path.join(d, "s.sock")
    r, w = os.pipe(); pid = os.fork()
    if pid == 0:
        os.setgroups([]); os.setgid(g); os.setuid(u)
        fd = os.open(sock + ".lock", os.O_RDONLY | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_SH); os.write(w, b"1"); time.sleep(50); os._exit(0)
    os.read(r, 1)
    p = start_daemon(sock, "", wait=False)
    try: p.wait(15)
    except subprocess.TimeoutExpired: pass
    os.kill(pid, 9); os.waitpid(pid, 0)
    t = log_of(p)
    problems = []
    if p.poll() == 69 and "another daemon holds" in t:
        problems.append("a lock file owned by uid %d (mode 0644, flock LOCK_SH) stops the root daemon: exit 69, %r" % (u, t.strip().splitlines()[-1][-140:]))
    if p.poll() is None: p.kill(); p.wait()
    # FIFO at the lock path
    sock2 = os.path.join(d, "t.sock")
    def mkfifo(): os.mkfifo(sock2 + ".lock", 0o644); return 1
    as_user(u, g, [g], mkfifo)
    q = start_daemon(sock2, "", wait=False)
    try: q.wait(8)
    except subprocess.TimeoutExpired: pass
    if q.poll() is None and "listening" not in log_of(q):
        problems.append("a FIFO made by uid %d at PATH.lock: the daemon hangs in open() (neither listening nor exited after 8 s)" % u)
    if problems: finish(True, "; ".join(problems))
    finish(False, "a lock file the daemon does not own is not trusted (exit %r / %r)" % (p.returncode, q.poll()))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
