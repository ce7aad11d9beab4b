#!/usr/bin/env python3
"""HELD check, README "Install as a service" / config/strokes.yaml: on SIGHUP "maxLineLength ... maxClients
... apply at once" and "the log names changed keys that need a restart (socket.*, ...)"; an invalid file
changes nothing. Also: http.* changes are named (config/strokes.yaml lists http nowhere; the daemon says restart).
Usage: python3 holds-03-sighup-applies-at-once.py /path/to/strokes"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

DIR = scratch_dir('advy-')
REC = REC01

CFG1 = 'socket:\n  path: %s/s.sock\n  mode: "0660"\nmaxLineLength: 65536\nmaxClients: 256\nhttp:\n  listen: %s/h.sock\n'
CFG2 = 'socket:\n  path: %s/s.sock\n  mode: "0600"\nmaxLineLength: 1000\nmaxClients: 2\nhttp:\n  listen: %s/h2.sock\n'

def conn():
    s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(DIR + "/s.sock"); return s, s.makefile("rb")

def main():
    if not os.access(BIN, os.X_OK) or not os.path.exists(REC):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    d = Daemon(config=CFG1 % (DIR, DIR), replay=REC, loop=True, sock=DIR + "/s.sock")
    cfg, p = d.cfg, d.p
    problems = []
    keep, kf = conn(); kf.readline()          # a client present across the reloads
    # an invalid file first: nothing changes
    open(cfg, "w").write("socket:\n  moed: 1\n"); p.send_signal(signal.SIGHUP); time.sleep(1)
    s, f = conn(); h = f.readline(); f.close(); s.close()
    if b'"maxLineLength":65536' not in h: problems.append("invalid reload changed something: %r" % h[:200])
    open(cfg, "w").write(CFG2 % (DIR, DIR)); p.send_signal(signal.SIGHUP); time.sleep(1.5)
    s, f = conn(); h = f.readline()
    if b'"maxLineLength":1000' not in h: problems.append("hello after reload: %r" % h[-60:])
    try: s.sendall(b'{"request":"ping","id":"' + b"a" * 1500 + b'"}\n')
    except OSError: pass                       # the daemon may close before taking all of it
    try: r = f.read()
    except OSError as e: r = repr(e).encode()
    if b"lineTooLong" not in r: problems.append("1500-byte line after reload to 1000: %r" % r[:200])
    f.close(); s.close()
    time.sleep(0.5)
    # keep + 1 more = 2 = maxClients; the third must be refused
    a, af = conn(); af.readline()
    b, bf = conn(); line = bf.readline()
    if b"tooManyClients" not in line: problems.append("maxClients 2 not applied: third client got %r" % line[:120])
    p.terminate(); p.wait(timeout=15)
    text = d.stderr()
    restart = [l for l in text.splitlines() if "next restart" in l]
    if not restart or "socket.mode" not in restart[0] or "http" not in restart[0]:
        problems.append("log does not name socket.mode / http as needing a restart")
    if problems:
        print("BROKEN: " + "; ".join(problems)); return 1
    print("HELD: invalid reload ignored; maxLineLength 1000 and maxClients 2 applied at once; restart-only keys logged")
    return 0

if __name__ == "__main__":
    sys.exit(main())
