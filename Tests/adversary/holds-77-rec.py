#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (README "Untrusted and long recordings", decoder.md "Recordings"): a malformed or over-limit
# recording stops with `file:line: what was expected`, exit 65 (replay, replay --summary), exit 1 for
# daemon --replay with the same message; no crash.
src = open(REC03, 'rb').read(); lines = src.split(b'\n')
h = next(i for i, l in enumerate(lines) if l.startswith(b'E:'))
J = lambda ls: b'\n'.join(ls)
cases = {
 'trunc_header': J(lines[:60]), 'trunc_mid_event': J(lines[:h + 5]) + b'\nE: 0.0277',
 'bad_hex': J(lines[:h + 3] + [b'E: 0.027718 0003 00zz 0001'] + lines[h + 3:]), 'huge_time': J(lines[:h + 3] + [b'E: 99999999999999999999.000000 0003 0035 0001'] + lines[h + 3:]),
 'long_line': J(lines[:h + 3] + [b'E: 0.027718 0003 0035 0001 ' + b'#' * 70000] + lines[h + 3:]), 'slots_300': src.replace(b'A: 2f 0 9 0 0 0', b'A: 2f 0 299 0 0 0'),
 'axis_min_gt_max': src.replace(b'A: 35 0 799 0 0 0', b'A: 35 900 799 0 0 0'), 'B_long': src.replace(b'B: 01 00 04 00 00 00 00 00 00', b'B: 01 ' + b'ff ' * 5000 + b'00'),
 'nul': src[:3000] + b'\x00' * 100 + src[3000:], 'big_frame': J(lines[:h] + [b'E: 0.000001 0003 0035 %04d' % (i % 799) for i in range(70000)]),
 'bighdr': src.replace(b'# Input device name', (b'# ' + b'x' * 1000 + b'\n') * 5000 + b'# Input device name', 1), 'binary': bytes(range(256)) * 20,
}
dd = tempfile.mkdtemp(prefix='advr-', dir='/tmp'); bad = []
for name, data in cases.items():
    p = dd + '/' + name + '.evemu'; open(p, 'wb').write(data)
    for args, want in [(['replay'], 65), (['replay', '--summary'], 65)]:
        r = subprocess.run([BIN] + args + [p], capture_output=True, timeout=60)
        if r.returncode != want or not re.search(re.escape(p) + r':\d+:', r.stderr.decode('utf-8', 'replace')):
            bad.append('%s %s: exit %d %r' % (name, args, r.returncode, r.stderr[-120:]))
    r = subprocess.run([BIN, 'daemon', '--socket', dd + '/s.sock', '--config', '/dev/null', '--replay', p], capture_output=True, timeout=30)
    if r.returncode != 1 or not re.search(re.escape(os.path.basename(p)) + r':\d+:', r.stderr.decode('utf-8', 'replace')):
        bad.append('%s daemon: exit %d %r' % (name, r.returncode, r.stderr[-120:]))
if bad: broken('; '.join(bad[:4]))
held('%d mangled recordings refused with file:line' % len(cases))
