#!/usr/bin/env python3
"""calibration.matrix accepts any finite numbers; entries near the double maximum overflow the
calibrated coordinate, and the daemon then sends `"nx":null` (and unbounded exponents elsewhere).

protocol.md (stroke events): "`nx`, `ny` | number | all | position normalised to 0..1 ... 6
decimals"; protocol.md: "A key listed as optional is absent (never `null`)". The configuration
refuses a non-finite matrix entry ("'calibration.matrix' must be a finite number"), so a value that
becomes infinite when applied should be refused too (or the result clamped).
Observed: with `matrix: [1e308, 1e308, 1e308, 0, 1, 0]` the daemon starts, and its `began`/`moved`
lines carry `"nx":null`."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(config='calibration:\n  - match: "name:*"\n    matrix: [1e308, 1e308, 1e308, 0, 1, 0]\n', replay=REC01, wait=False)
probe = d.accepting(15)
if probe is None:
    rc = d.exit_code(5)
    if rc == 78: held('the overflowing matrix is refused at start (exit 78)')
    setup_error('daemon did not come up: exit %s' % rc)
probe.close()
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe'})
line = None
end = time.time() + 15
while time.time() < end:
    l = c.recv_raw_line(5)
    if l is None: break
    if b'"began"' in l or b'"moved"' in l:
        line = l; break
if line is None: setup_error('no stroke event')
m = json.loads(line)
if not isinstance(m.get('nx'), (int, float)):
    broken('calibration matrix [1e308, 1e308, 1e308, 0, 1, 0] accepted at start, then stroke events carry '
           '"nx": %r (protocol.md: nx is a number, 6 decimals; optional keys are never null): %s'
           % (m.get('nx'), line[:200].decode()))
held('nx stays a number (or the matrix was refused): %r' % m.get('nx'))
