#!/usr/bin/env python3
"""`file:line:` errors quote the offending line with C0 controls escaped (\\u{1b}) but C1
controls (U+0080..U+009F, e.g. U+009B CSI, U+009D OSC, U+0085 NEL) raw, in all three formats
(evemu I:/P:/B:/A:/E: lines, evtest header lines, libinput YAML scalars). A libinput YAML file
that is pure ASCII can produce them too: "\\x9b" in a double-quoted scalar.
(`describe` escapes the same characters in a device name: \\u{9b}.)
Expected (docs/decoder.md "Recordings": "Error messages quote at most 60 characters of the
offending line, escaped (quotes, control characters, invalid UTF-8 as \\u{…})"; README fuzzing
oracle: a message "short and free of control characters"): no raw C1 control.
Exits 1 while the bug is present, 0 when fixed."""
import os, re, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r06-')
C1 = re.compile(rb'\xc2[\x80-\x9f]')
PAY = '\u009b2J\u009d0;owned\u009c'

EVEMU = ('# EVEMU 1.3\nN: x\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
         + ''.join('B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else 'B: 01 00 04 00 00 00 00 00 00\n' for i in range(12))
         + 'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
           'A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
           'E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0000 0000 0\nE: 0.010000 0003 0035 420\n')
EVTEST = ('Input driver version is 1.0.1\nInput device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0\n'
          'Input device name: "x"\nSupported events:\n  Event type 0 (EV_SYN)\n  Event type 3 (EV_ABS)\n'
          '    Event code 0 (ABS_X)\n      Value      0\n      Min        0\n      Max      799\n'
          'Testing ... (interrupt to exit)\n')
YAML = LIBINPUT_PREAMBLE + r'''- node: /dev/input/event5
  evdev:
    name: "x"
    id: [24, 0, "\x9b2J\x9d0;owned\x9c", 0]
    codes: {0: [0], 3: [0, 1]}
    absinfo: {0: [0, 799, 0, 0, 0], 1: [0, 479, 0, 0, 0]}
    properties: []
  events: []
'''
cases = [('evemu E: line', 'e.evemu', EVEMU.replace('0035 420', '0035 ' + PAY).encode()),
         ('evemu A: line', 'a.evemu', EVEMU.replace('A: 00 0 799 0 0 0', 'A: 00 0 799 0 0 ' + PAY).encode()),
         ('evtest ID line', 't.evtest', EVTEST.replace('bus 0x18', 'bus ' + PAY).encode()),
         ('yaml (ASCII file, \\x9b escape)', 'y.yml', YAML.encode('ascii'))]
bad = False
for label, fn, data in cases:
    f = os.path.join(D, fn); open(f, 'wb').write(data)
    p = subprocess.run([BIN, 'replay', f], capture_output=True, timeout=60)
    hits = C1.findall(p.stderr)
    print('%-32s exit %s, raw C1 in stderr: %s' % (label, p.returncode, hits))
    print('   ', p.stderr.strip()[:160])
    if hits: bad = True
sys.exit(1 if bad else 0)
