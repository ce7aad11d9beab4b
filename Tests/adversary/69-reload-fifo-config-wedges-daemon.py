#!/usr/bin/env python3
"""A SIGHUP while the configuration path is a FIFO (nobody writing): the daemon must keep its old
configuration, log the error, go on reloading later, and still stop on SIGTERM.

README ("Install as a service"): "`systemctl reload strokes` (SIGHUP) re-reads it: an invalid file
changes nothing (the error is logged)". architecture.md ("Lifecycle"): "SIGTERM or SIGINT ends
`DaemonSignals` ... every client gets what it had queued and `goodbye`, and is closed".
architecture.md: "`WATCHDOG=1` every half `WATCHDOG_USEC` until the very end".
Observed: the reload blocks forever opening the FIFO; no error is logged, the watchdog pings stop
(under strokes.service, WatchdogSec=30s kills and restarts it: every client disconnected), every later
SIGHUP (with a valid file back in place) is ignored, and SIGTERM is ignored too: no goodbye, socket
left, the process only dies to SIGKILL (systemd: TimeoutStopSec, then SIGKILL)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

nsdir = scratch_dir('n90-'); ns = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); ns.bind(nsdir + '/notify')
ns.settimeout(0.1)
os.environ['NOTIFY_SOCKET'] = nsdir + '/notify'; os.environ['WATCHDOG_USEC'] = '1000000'   # pings every 0.5 s
def drain_notify():
    got = []
    while True:
        try: got.append(ns.recv(4096).decode())
        except socket.timeout: return got
d = Daemon(config='maxLineLength: 5000\n', replay=REC01)
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe'})
c.until(lambda m: m['type'] == 'snapshot', 10)

os.unlink(d.cfg); os.mkfifo(d.cfg)
os.kill(d.p.pid, signal.SIGHUP)
time.sleep(1.5); drain_notify()
time.sleep(2.5)
pings = sum(m.count('WATCHDOG=1') for m in drain_notify())   # 2.5 s: about 5 expected
# A valid file back in place, reloaded: must apply.
os.unlink(d.cfg)
open(d.cfg, 'w').write('maxLineLength: 7000\n')
os.kill(d.p.pid, signal.SIGHUP)
time.sleep(1)
try:
    c2 = Client(d.sock, timeout=5); ml = c2.hello['maxLineLength']; c2.close()
except Exception as e:
    ml = 'no hello (%s)' % e
logged = 'not reloaded' in d.stderr()

d.p.send_signal(signal.SIGTERM)
msgs = c.drain_all(6)
rc = d.exit_code(4)
got_goodbye = any(m.get('type') == 'goodbye' for m in msgs)

problems = []
if pings == 0: problems.append('no WATCHDOG=1 from 1.5 to 4 s after the SIGHUP (WATCHDOG_USEC 1 s; the unit\'s WatchdogSec=30s would kill it)')
if ml != 7000: problems.append('a valid file reloaded after the FIFO was not applied (hello maxLineLength %s, want 7000)' % ml)
if not logged: problems.append('no "not reloaded" error logged for the FIFO')
if rc is None: problems.append('SIGTERM ignored: still running 10 s later (goodbye received: %s, socket still there: %s)' % (got_goodbye, os.path.exists(d.sock)))
elif rc != 0 or not got_goodbye: problems.append('SIGTERM: exit %s, goodbye %s' % (rc, got_goodbye))
if problems:
    broken('config path a FIFO at SIGHUP: ' + '; '.join(problems) +
           ' (README: "an invalid file changes nothing (the error is logged)"; architecture.md Lifecycle: SIGTERM -> goodbye, socket removed)')
held('a FIFO at SIGHUP was refused and logged; later reloads and SIGTERM work')
