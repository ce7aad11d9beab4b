#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 187: `strokes daemon --replay PATH` where PATH is a FIFO blocks an event-loop thread in open()
# before the socket is bound, and then ignores SIGTERM (the handler runs on the blocked loop): the
# daemon neither serves nor stops until SIGKILL. The configuration and gestures.yaml refuse a FIFO
# at once ("not a regular file (a FIFO)", 78).
# README: "A recording is untrusted input"; `strokes daemon --help`: "Stops on SIGTERM or SIGINT".
try:
    fifo = os.path.join(TMP, "rec.evemu"); os.mkfifo(fifo)
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, "", replay=fifo, wait=False)
    try: p.wait(5)
    except subprocess.TimeoutExpired: pass
    if p.poll() is not None:
        finish(False, "a FIFO recording is refused at once (exit %d): %s" % (p.returncode, log_of(p).strip().splitlines()[-1][-120:] if log_of(p).strip() else ""))
    p.send_signal(signal.SIGTERM)
    try: p.wait(5)
    except subprocess.TimeoutExpired: pass
    if p.poll() is None:
        blocked = []
        for t in os.listdir("/proc/%d/task" % p.pid):
            try:
                w = open("/proc/%d/task/%s/wchan" % (p.pid, t)).read(); c = open("/proc/%d/task/%s/comm" % (p.pid, t)).read().strip()
                if "partner" in w or "fifo" in w: blocked.append("%s in %s" % (c, w))
            except OSError: pass
        finish(True, "daemon with a FIFO as --replay: not listening after 5 s and still running 5 s after SIGTERM (%s)" % (", ".join(blocked) or "no thread in open"))
    finish(False, "daemon stopped on SIGTERM (exit %r) though the FIFO blocked it" % p.returncode)
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
