#!/usr/bin/env python3
"""98: one line the client cannot decode (not JSON, or a gesture with a field of the wrong type)
ends the long-running `strokes gestures` (no --once) with exit status 69 — the status documented
for "a daemon without the feature gestures" — instead of dropping that connection and
reconnecting as it does when the daemon goes away. Under the user unit every such line costs a
2 s restart (Restart=on-failure), and from a terminal the client is simply gone.

docs/gestures.md, "Socket": "a lost one is re-established by the client library. A daemon without
the feature `gestures` is refused with exit status 69. `--once` stops at the daemon's goodbye or a
lost connection instead"; `strokes gestures --help`: "Reconnects when the daemon goes away".
Expected: without --once the client survives (reconnects) and acts on the next gesture.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from gestures_fake import *


d = scratch_dir('adv98-')
f = Ctl(d)
log = d + '/log'
p = start_client(d, 'every: 0ms\nrules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n' % log)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s): %s' % (p.poll(), client_log(p)[-300:]))
f.send(G(1))
if not wait_for(lambda: lines(log) == ['a1'], 5):
    setup_error('the first tap ran nothing: %s' % client_log(p)[-300:])
f.subs.clear()
f.send(b'{"type":"gesture","gesture":"two","kind":"tap"}\n')   # a malformed gesture line
time.sleep(1.5)
if p.poll() is not None:
    fail('one malformed line from the daemon ended strokes gestures (no --once) with exit %d: %s'
         % (p.returncode, client_log(p).strip().splitlines()[-1][:200]))
# Still running: it either kept the connection or reconnected; the next tap must run.
if not f.subs.wait(10) and not f.conns:
    fail('strokes gestures neither kept nor re-established the connection')
try:
    f.send(G(3))
except OSError:
    pass
if not wait_for(lambda: 'a3' in lines(log), 5):
    fail('after a malformed line the client runs nothing more: %s' % client_log(p)[-300:])
ok('a malformed line does not end the client; it goes on acting on gestures')
