#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: a large millisecond value in the gestures section (holdTimeout, doubleTapTimeout,
# doubleTapMinTime, settleTime, velocityWindow: e.g. 1e300 or 9223372036854775807) crashes the daemon
# (Swift trap, SIGILL) instead of the documented configuration error.
# Promise (config/strokes.yaml header): "An unknown key, or a value of the wrong type, stops the daemon at
# start with an error naming the file, line and key"; README: an invalid configuration stops the daemon
# "with file:line: ... (exit 78)"; `strokes daemon --help`: "78 for an invalid configuration";
# README: "systemctl reload strokes (SIGHUP) re-reads it: an invalid file changes nothing (the error is logged)".
def start(cfgtext):
    dd = tempfile.mkdtemp(prefix='adv07-', dir='/tmp'); cfg = dd + '/c.yaml'; open(cfg, 'w').write(cfgtext)
    p = subprocess.Popen([BIN, 'daemon', '--socket', dd + '/s.sock', '--config', cfg, '--replay', REC03, '--no-loop'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p, cfg, dd
bad = []
for key in ['holdTimeout', 'doubleTapTimeout', 'doubleTapMinTime', 'settleTime', 'velocityWindow']:
    for v in ['1e300', '9223372036854775807']:
        p, cfg, dd = start('gestures:\n  %s: %s\n' % (key, v))
        try:
            p.wait(3)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGTERM); p.wait(10); continue
        err = p.stderr.read().decode('utf-8', 'replace').strip().splitlines()
        if p.returncode < 0 or p.returncode not in (78,):
            bad.append('gestures.%s: %s -> exit %s (%s)' % (key, v, p.returncode, err[-1][:100] if err else 'no message'))
p, cfg, dd = start('gestures:\n  devices:\n    - match: "name:*"\n      holdTimeout: 1e300\n')
try:
    p.wait(3)
    if p.returncode != 78: bad.append('gestures.devices[0].holdTimeout: 1e300 -> exit %s' % p.returncode)
except subprocess.TimeoutExpired:
    p.send_signal(signal.SIGTERM); p.wait(10)
# reload: a running daemon, SIGHUP with such a value
p, cfg, dd = start('history: 10\n')
time.sleep(1.5)
open(cfg, 'w').write('gestures:\n  holdTimeout: 1e300\n')
p.send_signal(signal.SIGHUP)
time.sleep(1.5)
if p.poll() is not None:
    bad.append('SIGHUP with gestures.holdTimeout: 1e300 killed the running daemon (exit %s)' % p.returncode)
else:
    p.send_signal(signal.SIGTERM); p.wait(10)
for b in bad: print(b)
if bad: broken('%d configurations crash the daemon instead of a file:line error: %s' % (len(bad), bad[0]))
held('large gesture timeouts refused cleanly')
