#!/usr/bin/env python3
"""holds-100: a gesture's values reach a command only as STROKES_GESTURE_* variables
(docs/gestures.md, "Commands"): `run:` is an argument vector, executed as it is (`$VAR` in it is
those characters, nothing split or expanded); `shell:` runs /bin/sh -c (the real one, not an `sh`
earlier in PATH) where the variables expand but a device name full of shell syntax is never
evaluated; inherited STROKES_GESTURE_* are removed first (a value the gesture lacks is absent, not
stale); a NUL in a device name becomes U+FFFD; the rest of the environment is passed unchanged.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from gestures_fake import *


d = scratch_dir('adv106-')
evil = '$(touch %s/pwned1)`touch %s/pwned2`;touch %s/pwned3 \'"\n|touch %s/pwned4 \x00end' % (d, d, d, d)
f = Ctl(d, devs=[dict(FAKE_DEVICE, name=evil)])
os.mkdir(d + '/bin')
open(d + '/bin/sh', 'w').write('#!/bin/dash\ntouch %s/fake-sh-ran\n' % d); os.chmod(d + '/bin/sh', 0o755)
env = {'PATH': d + '/bin:/usr/bin:/bin', 'HOME': d, 'KEEP': 'a=b\nc', 'EMPTY': '',
       'STROKES_GESTURE_DIRECTION': 'stale', 'STROKES_GESTURE_SCALE': '9', 'STROKES_GESTURE_BOGUS': 'x'}
cfg = ('every: 0ms\nrules:\n'
       '  - kind: tap\n    shell: \'printf "%%s" "$STROKES_GESTURE_DEVICE_NAME" > %s/quoted; echo $STROKES_GESTURE_DEVICE_NAME > %s/unquoted; env -0 > %s/env\'\n'
       '  - kind: doubleTap\n    run: [/usr/bin/env, printf, "%%s|", "$STROKES_GESTURE_KIND", "$(id)", "a b"]\n') % (d, d, d)
p = start_client(d, cfg, env=env)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s): %s' % (p.poll(), client_log(p)[-300:]))
f.send(G(1))
f.send(G(2, 'doubleTap'))
if not wait_for(lambda: os.path.exists(d + '/env') and os.path.getsize(d + '/env') > 0 and '|' in client_log(p), 8):
    fail('the commands did not run: %s' % client_log(p)[-400:])
time.sleep(0.3)
problems = []
pwned = [x for x in os.listdir(d) if x.startswith('pwned') or x == 'fake-sh-ran']
if pwned: problems.append('shell syntax in a device name was executed: %r' % pwned)
want_name = evil.replace('\x00', '\ufffd')
got = open(d + '/quoted', encoding='utf-8', errors='replace').read()
if got != want_name: problems.append('STROKES_GESTURE_DEVICE_NAME is %r, expected %r' % (got, want_name))
e = dict(x.split('=', 1) for x in open(d + '/env', 'rb').read().decode('utf-8', 'replace').split('\0') if '=' in x)
for k in ('STROKES_GESTURE_DIRECTION', 'STROKES_GESTURE_SCALE', 'STROKES_GESTURE_BOGUS'):
    if k in e: problems.append('inherited %s=%r reached the command of a tap' % (k, e[k]))
for k in ('KEEP', 'EMPTY', 'HOME'):
    if e.get(k) != env[k]: problems.append('%s is %r, expected %r' % (k, e.get(k), env[k]))
if e.get('STROKES_GESTURE_KIND') != 'tap' or e.get('STROKES_GESTURE_ID') != '1':
    problems.append('KIND/ID are %r/%r' % (e.get('STROKES_GESTURE_KIND'), e.get('STROKES_GESTURE_ID')))
if '$STROKES_GESTURE_KIND|$(id)|a b|' not in client_log(p):
    problems.append('run: arguments were expanded or split: %r' % client_log(p)[-200:])
if problems:
    fail('; '.join(problems))
ok('gesture values reach commands only as variables; nothing is evaluated, stale values are removed')
