#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 181: the daemon (run as root) gives the socket its mode and group by PATH (chmod/chown follow
# symlinks), after it checked the path with lstat: whoever can write the socket's directory swaps
# the freshly bound socket for a symlink and the daemon chmods/chowns the target: a root-only file
# becomes 0660 and of socket.group. strace delays the chmod/chown syscalls to make the window
# deterministic (it exists without strace; it is just short).
# docs/security.md: "The daemon gives the socket its group and mode before it listens"; README:
# "a stale socket file ... is replaced" only when it is a socket (the daemon refuses symlinks at
# the path: "exists and is not a socket: not replacing it"), so its intent is never to follow one.
try:
    if not shutil.which("strace"):
        cleanup(); print("SKIP: strace not installed"); sys.exit(2)
    g = mkgroup("advtestg181"); u = mkuser("advtest181", "advtestg181")
    d = os.path.join(TMP, "run"); os.mkdir(d); os.chown(d, u, g); os.chmod(d, 0o755)  # e.g. the user's XDG_RUNTIME_DIR
    victim = os.path.join(TMP, "victim"); open(victim, "w").write("root only\n"); os.chmod(victim, 0o600)
    sock = os.path.join(d, "strokes.sock")
    cfg = os.path.join(TMP, "c.yaml"); open(cfg, "w").write("socket:\n  group: advtestg181\n")
    logp = os.path.join(TMP, "d.log"); log = open(logp, "wb")
    p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=chmod,fchmodat,chown,fchownat,lchown",
                          "-e", "inject=chmod,fchmodat,chown,fchownat:delay_enter=2000000",
                          BIN, "daemon", "--replay", F01, "--socket", sock, "--config", cfg], stdout=log, stderr=log)
    PROCS.append(p)
    def attack():
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                st = os.lstat(sock)
                if (st.st_mode & 0o170000) == 0o140000:
                    os.rename(sock, sock + ".moved"); os.symlink(victim, sock); return "swapped"
            except FileNotFoundError: pass
            time.sleep(0.005)
        return "no socket appeared"
    r = as_user(u, g, [g], attack)
    deadline = time.time() + 20
    while time.time() < deadline and p.poll() is None:
        t = open(logp, errors="replace").read()
        if "ready" in t or "cannot run" in t: break
        time.sleep(0.1)
    st = os.stat(victim)
    if st.st_mode & 0o777 != 0o600 or st.st_gid != 0:
        finish(True, "attacker (%s) swapped the bound socket for a symlink to a root-only file; the root daemon then "
               "set the target to mode %o, group %d (advtestg181): chmod/chown by path follow symlinks" % (r, st.st_mode & 0o777, st.st_gid))
    finish(False, "target of the swapped-in symlink untouched (mode %o gid %d; attack: %s)" % (st.st_mode & 0o777, st.st_gid, r))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
