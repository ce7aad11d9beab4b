#!/usr/bin/env python3
"""Low severity. Unicode bidirectional controls (U+202A..U+202E, U+2066..U+2069) in a device
name, an evdev node (YAML), a file name or an error excerpt are printed raw by `describe`,
`replay --summary`, `file:line:` errors and the daemon's log, while C0 controls on the same
lines are escaped as \\u{…}. A name like "Wacom \\u202eneercshcuot" displays reversed, and an
unterminated override reorders the rest of the terminal line ("Trojan Source", CVE-2021-42574),
so the printed device name / message is not what the file contains.
Expected: escaped like the other invisible controls (\\u{202e}). Exits 1 while present, 0 when fixed."""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r08-')
BIDI = re.compile(rb'\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]')   # UTF-8 of U+202A..202E, U+2066..2069

def evemu(name, xline='A: 00 0 799 0 0 0'):
    return ('# EVEMU 1.3\nN: ' + name + '\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
            + ''.join('B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else 'B: 01 00 04 00 00 00 00 00 00\n' for i in range(12))
            + 'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
            + xline + '\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
              'E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 415\nE: 0.000001 0003 0036 107\n'
              'E: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\nE: 0.020000 0003 0039 -1\nE: 0.020000 0001 014a 0\nE: 0.020000 0000 0000 0\n').encode()

good = os.path.join(D, 'good.evemu'); open(good, 'wb').write(evemu('Wacom \u202eneercshcuot \u2066x'))
bad = os.path.join(D, 'bad.evemu'); open(bad, 'wb').write(evemu('n', 'A: 00 0 \u202e799 0 0 0'))
found = False
for label, args, stream in [('describe (name)', ['describe', good], 1), ('replay --summary (name)', ['replay', '--summary', good], 1),
                            ('replay error excerpt', ['replay', bad], 2)]:
    p = subprocess.run([BIN] + args, capture_output=True, timeout=60)
    out = p.stdout if stream == 1 else p.stderr
    hits = BIDI.findall(out)
    print('%-26s exit %s raw bidi controls: %s' % (label, p.returncode, hits))
    found = found or bool(hits)
sys.exit(1 if found else 0)
