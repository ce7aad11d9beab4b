#!/usr/bin/env python3
"""Finding 136 (low): a recording whose header declares ABS_MT_SLOT but no ABS_MT_POSITION_X/Y,
next to working single-touch axes (BTN_TOUCH + ABS_X/ABS_Y), is taken as a protocol-B device
and every touch is lost silently: `replay` prints no stroke, `--summary` says "strokes: 0" with
no diagnostic, the daemon serves the device and never publishes anything. It is neither decoded
through its single-touch axes (as protocol-A devices are) nor refused with an error naming the
device.

docs/decoder.md: single-touch is "ABS_X / ABS_Y + BTN_TOUCH, no ABS_MT_*"; protocol A "a
protocol-A device without single-touch axes is refused with a clear error naming the device";
"Recordings": an axis that "cannot be read (a position axis without one lost every contact,
silently)" is refused.
Exit 1 (BROKEN) while the touches vanish with exit 0 and no diagnostic.
Fixed: such a device is decoded through its single-touch axes (libinput's fallback).
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

HEADER = crafted_header('Slot only', {0x00: (0, 1000, 10), 0x01: (0, 1000, 10), 0x2f: (0, 4)}, keys=(330,), props=(1,), bus=3)
f = crafted_recording('adv136-', HEADER, frame_events([[(1, 330, 1), (3, 0, 100), (3, 1, 100)], [(3, 0, 150)], [(3, 0, 200)], [(1, 330, 0)]]))
r = subprocess.run([BIN, 'replay', f], capture_output=True, text=True, timeout=20)
summary = replay_output('--summary', f)
strokes = [l for l in r.stdout.splitlines() if '"began"' in l]
print('replay exit %d, %d strokes; stderr %r' % (r.returncode, len(strokes), r.stderr[:200]))
print('summary:', ' / '.join(summary.splitlines()))
diag = [l for l in summary.splitlines() if l.startswith('device 1 ') or 'unseen' in l or 'undeclared' in l]
if r.returncode == 0 and not strokes and not diag and not r.stderr.strip():
    broken('a BTN_TOUCH + ABS_X/ABS_Y device that also declares ABS_MT_SLOT (no MT position axes) loses its touch silently: 0 strokes, exit 0, no diagnostic')
held('the touch is decoded, or the file refused/diagnosed')
