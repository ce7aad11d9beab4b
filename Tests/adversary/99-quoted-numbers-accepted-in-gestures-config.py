#!/usr/bin/env python3
"""99: gestures.yaml takes a quoted string where a number is required (`fingers: "3"`,
`maxRunning: "2"`, `maxPerSecond: "5"`, `minDistance: "3"`) and uses it as the number, where the
daemon's own reader of the same YAML refuses the same thing (`history: "300"`: "'history' must be an
integer ≥ 0"), and where `device: "7"` is, as documented, a *name* and not the id 7.

docs/gestures.md: an invalid file stops the client with exit 78 — "an unknown key, a value of the
wrong type, ..."; `device`: "a device id (a plain integer) or name (anything else)". A quoted scalar
is a string: for `fingers` it is a value of the wrong type.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

d = scratch_dir('adv99-')
cases = {
    'fingers': 'rules:\n  - kind: tap\n    fingers: "3"\n    run: [x]\n',
    'maxRunning': 'maxRunning: "2"\nrules:\n  - kind: tap\n    run: [x]\n',
    'maxPerSecond': 'maxPerSecond: "5"\nrules:\n  - kind: tap\n    run: [x]\n',
    'minDistance': 'rules:\n  - kind: swipe\n    minDistance: "3"\n    run: [x]\n',
}
# The control: the same keys unquoted are valid, and the daemon's reader refuses a quoted integer.
for key, text in cases.items():
    path = os.path.join(d, key + '-plain.yaml'); open(path, 'w').write(text.replace('"', ''))
    r = subprocess.run([BIN, 'gestures', '--check', '--config', path], capture_output=True, text=True, timeout=20)
    if r.returncode != 0: setup_error('the unquoted %s is refused: %s' % (key, r.stderr.strip()))
problems = []
for key, text in cases.items():
    path = os.path.join(d, key + '.yaml'); open(path, 'w').write(text)
    r = subprocess.run([BIN, 'gestures', '--check', '--config', path], capture_output=True, text=True, timeout=20)
    if r.returncode != 78:
        problems.append('%s given as a quoted string: exit %d (%s)' % (key, r.returncode, (r.stdout + r.stderr).strip().splitlines()[0][:80]))
if problems:
    broken('values of the wrong type accepted: ' + '; '.join(problems))
held('quoted strings are refused where gestures.yaml needs a number')
