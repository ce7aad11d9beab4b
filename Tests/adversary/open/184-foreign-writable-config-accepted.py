#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from security_round import *  # noqa: F401,F403

# 184: the daemon, run as root, accepts a configuration file owned by and writable by another user
# (here 0666, owned by an unprivileged uid) without a word: whoever can write it chooses socket.mode
# (0666: every local user reads strokes), the allow-lists, the group, and which files the root
# daemon reads (devices.replay). sshd (StrictModes), sudo and polkit refuse such files.
# docs/security.md: "Reading strokes must therefore be granted like reading a keyboard, and never as
# a side effect of something else."; README: "Clients need to be in group strokes ... or in the
# configured allow-lists".
try:
    g = mkgroup("advtestg184"); u = mkuser("advtest184", "advtestg184")
    sock = os.path.join(TMP, "s.sock")
    cfg = os.path.join(TMP, "foreign.yaml"); open(cfg, "w").write('socket:\n  mode: "0666"\n')
    os.chown(cfg, u, g); os.chmod(cfg, 0o666)
    logp = os.path.join(TMP, "d.log")
    q = subprocess.Popen([BIN, "daemon", "--replay", F01, "--socket", sock, "--config", cfg], stdout=open(logp, "wb"), stderr=subprocess.STDOUT)
    PROCS.append(q)
    deadline = time.time() + 15
    while time.time() < deadline and q.poll() is None and "ready" not in open(logp).read(): time.sleep(0.05)
    t = open(logp, errors="replace").read()
    warned = any(w in t.lower() for w in ["writable", "owned by", "permission", "insecure", "unsafe"])
    if q.poll() is None and "ready" in t and not warned:
        st = os.stat(sock)
        finish(True, "root daemon serves with a config owned by uid %d and mode 0666 (no warning); it set the socket to %o as that file says"
               % (u, st.st_mode & 0o777))
    finish(False, "foreign/world-writable configuration refused or warned about (rc %r): %s" % (q.poll(), t.strip().splitlines()[-1][-160:] if t.strip() else ""))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
