#!/usr/bin/env python3
"""replay --summary and render print a negative duration for a recording whose times step back."""
import os, subprocess, sys, tempfile, shutil, re
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
src = open(os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')).read().splitlines()
hdr = [l for l in src if not l.startswith('E:')]
ev = ['E: 5.000000 0003 0039 0001', 'E: 5.000000 0003 0035 0010', 'E: 5.000000 0003 0036 0010',
      'E: 5.000000 0000 0000 0000', 'E: 1.000000 0003 0035 0020', 'E: 1.000000 0000 0000 0000',
      'E: 1.500000 0003 0039 -1', 'E: 1.500000 0000 0000 0000']
d = tempfile.mkdtemp()
try:
    f = os.path.join(d, 'back.evemu'); open(f, 'w').write('\n'.join(hdr + ev) + '\n')
    r = subprocess.run([S, 'replay', '--summary', f], capture_output=True, text=True, timeout=30)
    m = re.search(r'duration: (\S+) s', r.stdout)
    dur = float(m.group(1)) if m else None
    svg = os.path.join(d, 'b.svg')
    subprocess.run([S, 'render', f, '-o', svg], capture_output=True, timeout=30)
    legend = open(svg).read() if os.path.exists(svg) else ''
    neg_legend = re.search(r'· -\d', legend) or re.search(r'to -\d', legend)
    if dur is None or dur < 0 or neg_legend:
        print(f'BROKEN: a recording whose time steps back from 5 s to 1 s: replay --summary says '
              f'"duration: {m.group(1) if m else "?"} s"; render legend: '
              f'{re.findall(r">([0-9]+ strokes?:[^<]*)<", legend)[:1]}')
        sys.exit(1)
    print(f'HELD: duration {dur} s is not negative, legend sane')
finally:
    shutil.rmtree(d)
