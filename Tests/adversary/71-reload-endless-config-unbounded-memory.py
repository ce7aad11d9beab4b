#!/usr/bin/env python3
"""A SIGHUP while the configuration path leads to an endless file (a symlink to /dev/zero; the same
for a FIFO that is written forever): the daemon reads it whole, without bound.

README ("Install as a service"): "`systemctl reload strokes` (SIGHUP) re-reads it: an invalid file
changes nothing (the error is logged)"; strokes.service: "MemoryMax=256M ... a daemon that still
grows is killed and restarted". Recordings have a 4 MiB header / 64 KiB line limit (README,
"Untrusted and long recordings"); the configuration reader has none.
Observed: RSS climbs by hundreds of MB per second (past the unit's 256M: under systemd the
daemon is killed and every client disconnected), nothing is logged, and SIGTERM meanwhile does
not stop it. The same at start (`--config /dev/zero`)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(config='maxLineLength: 5000\n', replay=REC01)
before = d.rss_kb()
os.unlink(d.cfg); os.symlink('/dev/zero', d.cfg)
os.kill(d.p.pid, signal.SIGHUP)
peak = before
t0 = time.time()
while time.time() - t0 < 4:
    time.sleep(0.05)
    peak = max(peak, d.rss_kb())
    if peak - before > 300000: break          # enough: do not take the machine's memory
grew = peak - before; took = time.time() - t0
d.p.send_signal(signal.SIGTERM)
rc = d.exit_code(5)
if grew > 200000 or rc is None:
    broken('SIGHUP with the config a symlink to /dev/zero: RSS grew %d MB in %.1f s (unit MemoryMax=256M), '
           'SIGTERM afterwards: %s; README: "an invalid file changes nothing (the error is logged)"'
           % (grew // 1024, took, 'ignored for 5 s' if rc is None else 'exit %s' % rc))
held('an endless configuration file was refused without growing (%d kB)' % grew)
