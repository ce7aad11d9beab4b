#!/usr/bin/env python3
"""Single-touch axes (ABS_X/ABS_Y, also a pen's) have one value per device, and the kernel reports
it exactly (EVIOCGABS); evemu 1.3 writes it in its header ("# Value 300") and evtest prints it
("Value 300"). The kernel sends an axis only when it changes, so a touch that lands on the row the
device already reports sends ABS_X and BTN_TOUCH but no ABS_Y. decoder.md sets aside only the
*per-slot MT* header values ("the kernel fills EVIOCGABS for MT axes from the current slot only");
for ABS_Y the header value is what the device reported. strokes ignores it: the contact stays
"pending" and the whole tap is never published (and `--summary` blames the kernel:
`unpositionedContacts`, "a kernel fault"). Expected: one stroke at (200, 300).
Usage: python3 93-...py [BINARY]"""
import os, sys, json, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

comments = '''# EVEMU 1.3
# Input device name: "ST Touch"
# Supported events:
#   Event type 0 (EV_SYN)
#   Event type 1 (EV_KEY)
#     Event code 330 (BTN_TOUCH)
#   Event type 3 (EV_ABS)
#     Event code 0 (ABS_X)
#       Value    100
#       Min        0
#       Max     4000
#       Fuzz       0
#       Flat       0
#       Resolution 10
#     Event code 1 (ABS_Y)
#       Value    300
#       Min        0
#       Max     3000
#       Fuzz       0
#       Flat       0
#       Resolution 10
# Properties:
#   Property  type 1 (INPUT_PROP_DIRECT)
'''
header = comments + crafted_header('ST Touch', {0: (0, 4000, 10), 1: (0, 3000, 10)}, keys=(0x14a,), props=(0x01,)).replace('# EVEMU 1.3\n', '')
events = [E(1000000, 3, 0, 200), E(1000000, 1, 0x14a, 1), E(1000000, 0, 0, 0),
          E(1010000, 3, 0, 210), E(1010000, 0, 0, 0),
          E(1020000, 1, 0x14a, 0), E(1020000, 0, 0, 0)]
d = scratch_dir('adv93-')
evemu = os.path.join(d, 'st.evemu')
open(evemu, 'w').write(header + ''.join(events))

evtest_events = ''.join(
    'Event: time %d.%06d, type %d (%s), code %d (%s), value %d\n' % (t // 1000000, t % 1000000, ty, {1: 'EV_KEY', 3: 'EV_ABS'}[ty], c, n, v)
    if ty else 'Event: time %d.%06d, -------------- SYN_REPORT ------------\n' % (t // 1000000, t % 1000000)
    for t, ty, c, n, v in [(1000000, 3, 0, 'ABS_X', 200), (1000000, 1, 330, 'BTN_TOUCH', 1), (1000000, 0, 0, '', 0),
                           (1010000, 3, 0, 'ABS_X', 210), (1010000, 0, 0, '', 0),
                           (1020000, 1, 330, 'BTN_TOUCH', 0), (1020000, 0, 0, '', 0)])
evtest = os.path.join(d, 'st.evtest.txt')
open(evtest, 'w').write('''Input driver version is 1.0.1
Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x0
Input device name: "ST Touch"
Supported events:
  Event type 0 (EV_SYN)
  Event type 1 (EV_KEY)
    Event code 330 (BTN_TOUCH)
  Event type 3 (EV_ABS)
    Event code 0 (ABS_X)
      Value    100
      Min        0
      Max     4000
      Resolution      10
    Event code 1 (ABS_Y)
      Value    300
      Min        0
      Max     3000
      Resolution      10
Properties:
  Property type 1 (INPUT_PROP_DIRECT)
Testing ... (interrupt to exit)
''' + evtest_events)

# The same for a pen (16's description, its header saying the pen is at x 30000, y 14000): the pen
# comes near at x 30100 (y unchanged, not re-sent), touches, moves, lifts, leaves: one stroke.
pen_header = ''.join(l + '\n' for l in open(os.path.join(FIX, '16-wacom-cintiq13hd-pen-hover-tilt.evemu')).read().split('\n')
                     if not l.startswith('E:'))
for code, value in (('(ABS_X)', '30000'), ('(ABS_Y)', '14000')):
    i = pen_header.index(code); j = pen_header.index('Value', i)
    pen_header = pen_header[:j] + 'Value  ' + value + pen_header[j + len('Value      0'):]
pen = os.path.join(d, 'pen.evemu')
open(pen, 'w').write(pen_header + ''.join([
    E(1000, 3, 0, 30100), E(1000, 1, 0x140, 1), E(1000, 0, 0, 0),
    E(10000, 1, 0x14a, 1), E(10000, 3, 0x18, 300), E(10000, 0, 0, 0),
    E(20000, 3, 0, 30200), E(20000, 0, 0, 0),
    E(30000, 1, 0x14a, 0), E(30000, 3, 0x18, 0), E(30000, 0, 0, 0),
    E(40000, 1, 0x140, 0), E(40000, 0, 0, 0)]))

problems = []
out = [json.loads(l) for l in replay_output(pen).splitlines()]
pb = [m for m in out if m['type'] == 'began']
if len(pb) != 1 or (pb[0]['x'], pb[0]['y']) != (30100, 14000):
    problems.append('pen.evemu: %d pen strokes (expected 1 at x 30100, y 14000 = the header value)' % len(pb))
for path in (evemu, evtest):
    out = replay_output(path)
    msgs = [json.loads(l) for l in out.splitlines()]
    began = [m for m in msgs if m['type'] == 'began']
    if len(began) != 1:
        problems.append('%s: %d strokes (expected 1: the tap at x 200, y 300 = the header value)' % (os.path.basename(path), len(began)))
    elif (began[0]['x'], began[0]['y']) != (200, 300):
        problems.append('%s: began at (%s, %s), expected (200, 300)' % (os.path.basename(path), began[0]['x'], began[0]['y']))
if problems:
    summary = subprocess.run([BIN, 'replay', '--summary', evemu], capture_output=True, text=True, timeout=30).stdout
    diag = [l for l in summary.splitlines() if 'unpositioned' in l or 'unseen' in l]
    broken('a single-touch tap on the row the header reports (ABS_Y Value 300, not re-sent): ' + '; '.join(problems) + ' ' + str(diag))
held('the header value of a single-touch axis positions the contact')
