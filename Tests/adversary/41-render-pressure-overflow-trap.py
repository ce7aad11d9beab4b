#!/usr/bin/env python3
"""`strokes render FILE -o out.svg` dies with SIGILL (Swift arithmetic overflow in
SVGRenderer.Panel.lineWidths, SVGRenderer+Panel.swift:115) when one stroke's pressure (or
touch major, or a pen's ABS_PRESSURE) samples are -1 and 2147483647 (or two strokes' medians differ by more than 2^31-1).
`strokes render --socket` of a daemon serving such a recording dies the same way.
Expected: an SVG (README: "A recording is untrusted input"; width "placed within the range of
values the picture shows"), or at worst file:line + exit 65, never a trap.
Exits 1 while the bug is present, 0 when fixed."""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r02-')
I32MIN, I32MAX = -2**31, 2**31 - 1

def recording(code, v1, v2):
    h = ('# EVEMU 1.3\nN: width overflow\nI: 0003 056a 005d 0005\nP: 02 00 00 00 00 00 00 00\n'
         'B: 00 0b 00 00 00 00 00 00 00\n')
    for i in range(12):
        h += 'B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else 'B: 01 00 04 00 00 00 00 00 00\n'
    m = bytearray(8)
    for c in (0, 1, 0x2f, 0x35, 0x36, 0x39, code): m[c // 8] |= 1 << (c % 8)
    h += 'B: 02 00 00 00 00 00 00 00 00\nB: 03 ' + ' '.join('%02x' % x for x in m) + '\n'
    h += ('A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: %02x 0 255 0 0 0\nA: 35 0 799 0 0 0\n'
          'A: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n') % code
    h += ('E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 100\nE: 0.000001 0003 0036 100\n'
          'E: 0.000001 0003 %04x %d\nE: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\n'
          'E: 0.010001 0003 0035 200\nE: 0.010001 0003 %04x %d\nE: 0.010001 0000 0000 0\n'
          'E: 0.020001 0003 0039 -1\nE: 0.020001 0001 014a 0\nE: 0.020001 0000 0000 0\n') % (code, v1, code, v2)
    return h

bad = False
for label, code, v1, v2 in [('ABS_MT_PRESSURE -1 then 2^31-1', 0x3a, -1, I32MAX),
                            ('ABS_MT_PRESSURE -2^31 then 1', 0x3a, I32MIN, 1),
                            ('ABS_MT_TOUCH_MAJOR -1 then 2^31-1', 0x30, -1, I32MAX)]:
    f = os.path.join(D, 'w-%02x-%d.evemu' % (code, v1))
    open(f, 'w').write(recording(code, v1, v2))
    out = os.path.join(D, 'out.svg')
    p = subprocess.run([BIN, 'render', f, '-o', out], capture_output=True, timeout=60)
    print('%-36s render exit %s' % (label, p.returncode))
    if p.returncode < 0 or p.returncode not in (0, 65):
        bad = True
        print('   BUG: killed by signal / trap:', p.stderr.split(b'\n')[3][:120] if p.stderr.count(b'\n') > 3 else p.stderr[:200])
sys.exit(1 if bad else 0)
