#!/usr/bin/env python3
"""holds-101: the limits of docs/gestures.md, "Limits" and "Rules", against a flood of gestures:
- the default global `maxPerSecond: 10`: 40 taps at once run exactly 10 commands;
- a rule's rate limit skips the gesture, which is not handed to the next rule, and a skipped
  gesture counts against no limit (the global limit still has room for another rule);
- `maxRunning`: while that many commands run, a gesture is skipped and logged; a reload (SIGHUP)
  does not forget the commands still running; once they end, commands start again.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from gestures_fake import *


problems = []

# 1. The default global limit.
d = scratch_dir('adv107a-'); f = Ctl(d); log = d + '/log'
p = start_client(d, 'rules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n' % log)
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
f.send(b''.join(json.dumps(G(i)).encode() + b'\n' for i in range(1, 41)))
time.sleep(0.9)
n = len(lines(log))
if n != 10: problems.append('40 taps at once ran %d commands under the default maxPerSecond 10' % n)
p.kill(); p.wait()

# 2. A rule's limit: skipped, not handed on; skipped gestures use none of the global limit.
d = scratch_dir('adv107b-'); f = Ctl(d); log = d + '/log'
p = start_client(d, ('maxPerSecond: 3\nrules:\n'
                     '  - name: a\n    kind: tap\n    every: 30s\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n'
                     '  - name: fallback\n    kind: tap\n    run: [sh, -c, "echo f$STROKES_GESTURE_ID >> %s"]\n'
                     '  - name: b\n    kind: swipe\n    run: [sh, -c, "echo b$STROKES_GESTURE_ID >> %s"]\n') % (log, log, log))
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
for i in range(1, 6): f.send(G(i))
for i in range(6, 10): f.send(G(i, 'swipe'))
time.sleep(1.0)
got = sorted(lines(log))
if got != ['a1', 'b6', 'b7']:
    problems.append('rule limit / global limit: ran %r, expected a1 (taps 2-5 skipped, not handed to "fallback") and b6, b7 (global 3/s)' % got)
p.kill(); p.wait()

# 3. maxRunning, across a reload.
d = scratch_dir('adv107c-'); f = Ctl(d); log = d + '/log'
cfg = 'every: 0ms\nmaxRunning: 2\nrules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s; exec sleep 2"]\n' % log
p = start_client(d, cfg)
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
for i in (1, 2, 3): f.send(G(i))
wait_for(lambda: len(lines(log)) >= 2, 3); time.sleep(0.3)
open(d + '/g.yaml', 'w').write(cfg + '# edited\n'); p.send_signal(signal.SIGHUP); time.sleep(0.4)
f.send(G(4)); time.sleep(0.5)
if sorted(lines(log)) != ['a1', 'a2']:
    problems.append('maxRunning 2: ran %r while two commands ran (a reload in between)' % sorted(lines(log)))
if 'still running' not in client_log(p): problems.append('a gesture skipped for maxRunning was not logged')
wait_for(lambda: not children(p.pid), 5)
f.send(G(5)); wait_for(lambda: 'a5' in lines(log), 3)
if 'a5' not in lines(log): problems.append('after the commands ended, a new tap ran nothing')
if problems:
    fail('; '.join(problems))
ok('global, per-rule and maxRunning limits hold under a flood and across a reload')
