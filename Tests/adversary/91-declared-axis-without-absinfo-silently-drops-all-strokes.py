#!/usr/bin/env python3
"""A recording whose header declares an absolute axis (evemu `B: 03` bit, libinput-record `codes`)
but gives no absinfo for it (no `A:` line / no `absinfo` entry) is inconsistent: the kernel has no
such device (every EV_ABS bit has an absinfo, EVIOCGABS). strokes accepts it, reports it as a
multitouch touchscreen, drops the axis from `describe`, and then silently discards every contact
on it (`undeclaredCodes`, `unpositionedContacts`): `replay` prints zero strokes and exits 0 with
nothing on stderr. README: "A malformed file stops with `file:line: what was expected` and exit
status 65"; decoder.md: "no invented values", "a zero-width axis is read". Expected: either a
clear `file:line:` refusal (exit 65) or the declared axis read (strokes published); never a
silent, successful, empty replay.
Usage: python3 91-...py [BINARY]"""
import os, sys, json, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

tap = (E(1000, 3, 0x2f, 0) + E(1000, 3, 0x39, 5) + E(1000, 3, 0x35, 100) + E(1000, 3, 0x36, 100) + E(1000, 0, 0, 0)
       + E(20000, 3, 0x35, 120) + E(20000, 0, 0, 0) + E(40000, 3, 0x39, -1) + E(40000, 0, 0, 0))
h = touch_header('Test Touch')
assert 'A: 35 0 4000 0 0 10\n' in h
d = scratch_dir('adv91-')
evemu = os.path.join(d, 'no-absinfo.evemu')
open(evemu, 'w').write(h.replace('A: 35 0 4000 0 0 10\n', '') + tap)

yml_src = open(os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.libinput.yml')).read()
line = '        53: [0, 799, 0, 0, 0]\n'
if line not in yml_src: setup_error('fixture 03 libinput.yml changed')
yml = os.path.join(d, 'no-absinfo.libinput.yml')
open(yml, 'w').write(yml_src.replace(line, ''))

problems = []
for path in (evemu, yml):
    try:
        r = subprocess.run([BIN, 'replay', path], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        broken('replay hung on %s' % path)
    if r.returncode < 0: problems.append('%s: killed by signal %d' % (os.path.basename(path), -r.returncode)); continue
    if r.returncode == 65:
        if (path + ':') not in r.stderr:
            problems.append('%s: exit 65 without file:line: %r' % (os.path.basename(path), r.stderr[:200]))
        continue
    began = [json.loads(l) for l in r.stdout.splitlines() if l.startswith('{') and json.loads(l).get('type') == 'began']
    if r.returncode == 0 and not began:
        problems.append('%s: exit 0, no stroke at all, stderr %r (the contacts on the declared axis were silently '
                        'dropped)' % (os.path.basename(path), r.stderr.strip()[:200]))
    elif r.returncode not in (0, 65):
        problems.append('%s: exit %d' % (os.path.basename(path), r.returncode))
if problems:
    broken('a header that declares ABS_MT_POSITION_X without its absinfo: ' + '; '.join(problems))
held('a declared axis without absinfo is refused with file:line or read')
