#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

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
