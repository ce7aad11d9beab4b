#!/usr/bin/env python3
"""Holds (regression guard): 600 deterministic mutations (seeded) of the real recordings in the
three formats (lines deleted, duplicated, swapped, cut, numbers replaced by extremes, bytes flipped,
the file truncated) through `replay`, `replay --summary --hover`, `describe` and `render`, each
under a 2 GiB address-space limit and a 15 s timeout: never a signal, a hang or another exit than 0
or 65; a refusal names `FILE:LINE:` with a line inside the file (or, for a file-level fault, the
file), with no control character; a replay that succeeds keeps the lifecycle guarantee and lists
exactly the open strokes in `stillActive` (README "Untrusted and long recordings", decoder.md
"Recordings").
Usage: python3 holds-98-...py [BINARY]"""
import os, sys, re, json, random, resource, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

seeds = [FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.evemu', FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.evtest.txt',
         FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.libinput.yml', FIX + '/09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu',
         FIX + '/16-wacom-cintiq13hd-pen-hover-tilt.evemu', FIX + '/11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu',
         FIX + '/03+11-two-devices.libinput.yml']
data = [open(s, 'rb').read() for s in seeds]
rnd = random.Random(15)
NUMS = [b'0', b'-1', b'65535', b'65536', b'2147483647', b'-2147483648', b'4294967296', b'99999999999999999999', b'0x10',
        b'', b'1e5', b'-0', b'255', b'256', b'9223372036854775807', b'nan']
def mutate(b):
    lines = b.split(b'\n')
    for _ in range(rnd.randint(1, 4)):
        k = rnd.randrange(8); i = rnd.randrange(len(lines))
        if k == 0: del lines[i]
        elif k == 1: lines.insert(i, lines[rnd.randrange(len(lines))])
        elif k == 2:
            toks = re.split(rb'(-?\d+)', lines[i]); idx = [j for j in range(len(toks)) if re.fullmatch(rb'-?\d+', toks[j])]
            if idx: toks[rnd.choice(idx)] = rnd.choice(NUMS); lines[i] = b''.join(toks)
        elif k == 3 and lines[i]:
            p = rnd.randrange(len(lines[i])); lines[i] = lines[i][:p] + bytes([rnd.randrange(256)]) + lines[i][p + 1:]
        elif k == 4: lines[i] = lines[i][:rnd.randrange(len(lines[i]) + 1)]
        elif k == 5:
            j = rnd.randrange(len(lines)); lines[i], lines[j] = lines[j], lines[i]
        elif k == 6: lines = lines[:i] or [b'']
        elif k == 7: lines[i] += rnd.choice([b' ', b'\t', b' x', b'\r', b' # c', b':', b'  - ', b'{', b'"'])
        if not lines: lines = [b'']
    return b'\n'.join(lines)
def limit(): resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
d = scratch_dir('adv99-')
modes = [lambda p: ['replay', p], lambda p: ['replay', '--summary', '--hover', p], lambda p: ['describe', p],
         lambda p: ['render', p, '-o', os.path.join(d, 'out.svg')]]
for n in range(600):
    si = rnd.randrange(len(data)); b = mutate(data[si]); mode = n % len(modes)
    path = os.path.join(d, 'm%d%s' % (n, os.path.splitext(seeds[si])[1]))
    open(path, 'wb').write(b)
    args = modes[mode](path)
    try:
        r = subprocess.run([BIN] + args, capture_output=True, timeout=15, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        broken('%s hung (mutation %d of %s)' % (' '.join(args[:-1]), n, os.path.basename(seeds[si])))
    err = r.stderr.decode('utf-8', 'replace')
    where = 'mutation %d of %s, %s' % (n, os.path.basename(seeds[si]), args[0])
    if r.returncode not in (0, 65): broken('%s: exit %d: %s' % (where, r.returncode, err[-300:]))
    if r.returncode == 65:
        if (path + ':') not in err: broken('%s: refusal does not name the file: %r' % (where, err[:200]))
        m = re.search(re.escape(path) + r':(\d+): ', err)
        if m and not 1 <= int(m.group(1)) <= b.count(b'\n') + 1:
            broken('%s: error line %s outside the file (%d lines)' % (where, m.group(1), b.count(b'\n') + 1))
        if any(ord(c) < 32 and c != '\n' for c in err): broken('%s: control character in %r' % (where, err[:200]))
    elif args[0] == 'replay' and '--summary' not in args:
        state = {}
        for l in r.stdout.decode().splitlines():
            m = json.loads(l); t = m['type']
            if t in ('began', 'moved', 'ended', 'cancelled'):
                s = m['stroke']
                if t == 'began':
                    if s in state: broken('%s: stroke %s began twice' % (where, s))
                    state[s] = 1
                elif state.get(s) != 1: broken('%s: %s for stroke %s after its end' % (where, t, s))
                elif t != 'moved': state[s] = 2
            elif t == 'replayEnded' and sorted(m['stillActive']) != sorted(k for k, v in state.items() if v == 1):
                broken('%s: stillActive %s does not list the open strokes' % (where, m['stillActive']))
    os.unlink(path)
held('600 mutated recordings: each read or refused with file:line, no crash, hang or broken lifecycle')
