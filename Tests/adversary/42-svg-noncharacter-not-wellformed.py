#!/usr/bin/env python3
"""A device name (or recording file name) containing U+FFFE or U+FFFF is copied raw into the SVG
`strokes render` writes (<text>device 1: NAME …</text>, <title>strokes: FILE</title>). XML 1.0
forbids these code points (production [2] Char), so the SVG is not well-formed: xml.etree,
xmllint and browsers refuse it, and `-o out.png` fails (rsvg-convert: "PCDATA invalid Char
value 65534", strokes exits 70). Same for `render --socket` against a daemon serving it.
Other control characters in names are already dropped from the SVG; these two are not.
Expected: a well-formed SVG for any name. Exits 1 while the bug is present, 0 when fixed."""
import os, subprocess, sys, tempfile, xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r03-')

def evemu(name):
    h = b'# EVEMU 1.3\nN: ' + name + b'\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
    for i in range(12):
        h += b'B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else b'B: 01 00 04 00 00 00 00 00 00\n'
    h += (b'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
          b'A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
          b'E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 415\nE: 0.000001 0003 0036 107\n'
          b'E: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\nE: 0.010000 0003 0035 420\nE: 0.010000 0000 0000 0\n'
          b'E: 0.020000 0003 0039 -1\nE: 0.020000 0001 014a 0\nE: 0.020000 0000 0000 0\n')
    return h

YAML = libinput_tap(r'yaml \ufffe name')
cases = [('evemu name U+FFFF', 'name.evemu', evemu('dev \uffff'.encode())),
         ('evemu name U+FFFE', 'name2.evemu', evemu('dev \ufffe'.encode())),
         ('yaml name "\\ufffe"', 'name.yml', YAML.encode()),
         ('file name with U+FFFF', 'f\uffff.evemu', evemu(b'plain'))]
bad = False
for label, fn, data in cases:
    f = os.path.join(D, fn)
    open(f, 'wb').write(data)
    out = os.path.join(D, 'out.svg')
    p = subprocess.run([BIN, 'render', f, '-o', out], capture_output=True, timeout=60)
    try:
        ET.parse(out); verdict = 'well-formed'
    except Exception as e:
        verdict = 'NOT well-formed: %s' % e; bad = True
    print('%-24s exit %s, %s' % (label, p.returncode, verdict))
    os.path.exists(out) and os.unlink(out)
sys.exit(1 if bad else 0)
