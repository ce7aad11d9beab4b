#!/usr/bin/env python3
"""README ("Untrusted and long recordings") and decoder.md ("Recordings", RecordingLimits): a
recording is refused with `file:line:` and exit 65 beyond "frames up to 65 536 events" ("events in
one frame (between SYN_REPORTs) | 65 536"). evemu and evtest files are refused so
("more than 65536 events without a SYN_REPORT from here"); a `libinput record` YAML recording with
the same frame (70 000 events before its SYN_REPORT) is replayed with exit 0, and so is one with
80 000 events and no SYN_REPORT at all. Expected: exit 65 naming file:line, as for evemu/evtest.
Usage: python3 94-...py [BINARY]"""
import os, sys, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

src = open(os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.libinput.yml')).read()
start = src.index('    events:\n') + len('    events:\n')
second = src.index('    - evdev:\n', start + 5)
big = ('    - evdev:\n' + ''.join('      - [  0,  1000,   3,  53,   %d]\n' % (400 + i % 2) for i in range(70000))
       + '      - [  0,  1000,   0,   0,     0]\n')
d = scratch_dir('adv94-')
yml = os.path.join(d, 'big-frame.libinput.yml')
open(yml, 'w').write(src[:second] + big + src[second:])

# the same frame as evemu, for reference: refused
evemu_src = open(os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')).read()
lines = evemu_src.split('\n')
first_syn = next(i for i, l in enumerate(lines) if l.startswith('E:') and ' 0000 0000 ' in l)
evemu = os.path.join(d, 'big-frame.evemu')
open(evemu, 'w').write('\n'.join(lines[:first_syn] + ['E: 0.000001 0003 0035 %04d' % (400 + i % 2) for i in range(70000)] + lines[first_syn:]))

def run(path):
    try:
        return subprocess.run([BIN, 'replay', '--summary', path], capture_output=True, text=True, timeout=50)
    except subprocess.TimeoutExpired:
        broken('replay --summary hung on %s' % path)

ref = run(evemu)
if ref.returncode != 65: setup_error('the evemu reference was not refused (exit %d): %s' % (ref.returncode, ref.stderr[:200]))
r = run(yml)
if r.returncode == 65 and (yml + ':') in r.stderr:
    held('a libinput YAML frame of 70 000 events is refused with file:line, as evemu: ' + r.stderr.strip()[:120])
broken('a libinput record YAML frame of 70 000 events (limit 65 536) gives exit %d (evemu: exit 65 "%s"); stderr %r'
       % (r.returncode, ref.stderr.strip()[len('strokes: '):][:90], r.stderr.strip()[:200]))
