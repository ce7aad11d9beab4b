#!/usr/bin/env python3
"""Degenerate recordings: empty file (65, 'the file is empty'), header only (0 frames, one replayEnded),
one frame (stroke still active), truncated frame (warning, rc 0), a 1-slot device with 4 fingers
(diagnostics), a 100k-event file; every render is well-formed SVG."""
import os, subprocess, sys, tempfile, shutil, json, xml.dom.minidom
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
try:
    L = open(E).read().splitlines(); hdr = [l for l in L if not l.startswith('E:')]; ev = [l for l in L if l.startswith('E:')]
    first = next(i for i, l in enumerate(ev) if ' 0000 0000 0000' in l)
    ev100k = ['E: 0.000001 0003 002f 0000', 'E: 0.000001 0003 0039 0001', 'E: 0.000001 0003 0035 0010', 'E: 0.000001 0003 0036 0010', 'E: 0.000001 0000 0000 0000']
    t = 1
    while len(ev100k) < 100000:
        t += 1000; ev100k += ['E: %d.%06d 0003 0035 %04d' % (t // 10**6, t % 10**6, 10 + (len(ev100k) // 2) % 700), 'E: %d.%06d 0000 0000 0000' % (t // 10**6, t % 10**6)]
    ev100k += ['E: %d.%06d 0003 0039 -1' % (t // 10**6, t % 10**6), 'E: %d.%06d 0000 0000 0000' % (t // 10**6, t % 10**6)]
    cases = {'zero': (hdr, 0, 0, 0), 'frame': (hdr + ev[:first + 1], 1, 1, 1), 'trunc': (hdr + ev[:3], 0, 0, 0),
             'slot1': ([l.replace('A: 2f 0 9 0 0 0', 'A: 2f 0 0 0 0 0') for l in L], 31, 1, 0), 'big': (hdr + ev100k, 50000, 1, 0)}
    open(os.path.join(d, 'empty.evemu'), 'w').close()
    r = subprocess.run([S, 'replay', os.path.join(d, 'empty.evemu')], capture_output=True, text=True, timeout=30)
    if r.returncode != 65 or 'empty' not in r.stderr: bad.append(f'empty: rc {r.returncode} {r.stderr!r}')
    for name, (lines, frames, strokes, active) in cases.items():
        f = os.path.join(d, name + '.evemu'); open(f, 'w').write('\n'.join(lines) + '\n')
        r = subprocess.run([S, 'replay', f], capture_output=True, text=True, timeout=50)
        evs = [json.loads(l) for l in r.stdout.splitlines()]
        if r.returncode != 0 or not evs or evs[-1]['type'] != 'replayEnded': bad.append(f'{name}: rc {r.returncode}'); continue
        if evs[-1]['frames'] != frames or sum(e['type'] == 'began' for e in evs) != strokes or len(evs[-1]['stillActive']) != active:
            bad.append(f'{name}: {evs[-1]} began={sum(e["type"] == "began" for e in evs)}')
        o = os.path.join(d, name + '.svg')
        r = subprocess.run([S, 'render', f, '-o', o], capture_output=True, timeout=50)
        if r.returncode != 0: bad.append(f'{name}: render rc {r.returncode}')
        else: xml.dom.minidom.parse(o)
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: empty, header-only, one-frame, truncated, 1-slot and 100k-event recordings behave')
finally:
    shutil.rmtree(d)
