#!/usr/bin/env python3
"""HELD check, docs/security.md "HTTP": a Unix socket HTTP listener is "given socket.mode and socket.group
... set before it listens; owned like the client socket, PATH.lock and all"; README: a file that is not a
socket is never replaced; "an address another process accepts on stops it too (exit 69)"; the file is removed at exit.
Cases: regular file at the HTTP path (must survive, daemon exits non-zero); HTTP path == the client socket
path (exit 69); normal run under umask 000 (socket mode 0660, /healthz answers, file removed at SIGTERM).
Usage: python3 holds-02-http-unix-socket-lifecycle.py /path/to/strokes"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
import stat

DIR = scratch_dir('advy-')
REC = REC03

def daemon(sock, http):
    """A daemon under umask 000 (what the mode must not depend on); not waited for."""
    return Daemon(replay=REC, loop=True, sock=sock, http=http, wait=False, umask=0)

def main():
    if not os.access(BIN, os.X_OK) or not os.path.exists(REC):
        print("usage: %s STROKES (needs %s)" % (sys.argv[0], REC)); return 2
    problems = []
    # 1. a regular file at the HTTP path
    open(DIR + "/h.sock", "w").write("precious")
    rc = daemon(DIR + "/c.sock", DIR + "/h.sock").exit_code(15)
    if rc is None: problems.append("daemon kept running over a regular file")
    if rc == 0: problems.append("exit 0 over a regular file")
    if not os.path.isfile(DIR + "/h.sock") or open(DIR + "/h.sock").read() != "precious":
        problems.append("the regular file at the HTTP path was replaced")
    os.unlink(DIR + "/h.sock")
    # 2. HTTP path == client socket path
    rc = daemon(DIR + "/c.sock", DIR + "/c.sock").exit_code(15)
    if rc is None: problems.append("daemon ran with both listeners on one path")
    if rc != 69: problems.append("same path for both listeners: exit %s, want 69" % rc)
    # 3. normal run
    dm = daemon(DIR + "/c.sock", DIR + "/h.sock")
    t0 = time.time()
    while not os.path.exists(DIR + "/h.sock") and time.time() - t0 < 15: time.sleep(0.1)
    time.sleep(0.5)
    try:
        mode = stat.S_IMODE(os.stat(DIR + "/h.sock").st_mode)
        if mode != 0o660: problems.append("HTTP socket mode %o under umask 000, want 660" % mode)
        s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(DIR + "/h.sock")
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            d = s.recv(4096)
            if not d: break
            data += d
        s.close()
        if b'"status":"ok"' not in data: problems.append("/healthz over the Unix socket: %r" % data[:200])
    except OSError as e:
        problems.append("HTTP socket: %s" % e)
    dm.p.terminate()
    if dm.exit_code(15) is None: problems.append("no exit on SIGTERM")
    if os.path.exists(DIR + "/h.sock"): problems.append("HTTP socket file left after exit")
    if problems:
        print("BROKEN: " + "; ".join(problems)); return 1
    print("HELD: regular file kept, same-path exit 69, mode 0660 under umask 000, /healthz served, file removed at exit")
    return 0

if __name__ == "__main__":
    sys.exit(main())
