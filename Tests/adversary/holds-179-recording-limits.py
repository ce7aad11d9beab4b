#!/usr/bin/env python3
"""README limits: 257 slots, a line over 64 KiB, a frame of 65 537 events, an event time past 2^63 us are
refused with file:line and exit 65 by replay, replay --summary and render (no output file); 256 slots and
a 65 536-event frame are read."""
import os, subprocess, sys, tempfile, shutil
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
try:
    L = open(E).read().splitlines(); hdr = [l for l in L if not l.startswith('E:')]
    def w(n, lines): p = os.path.join(d, n); open(p, 'w').write('\n'.join(lines) + '\n'); return p
    cases = {
        's257': ([l.replace('A: 2f 0 9 0 0 0', 'A: 2f 0 256 0 0 0') for l in L], 65),
        's256': ([l.replace('A: 2f 0 9 0 0 0', 'A: 2f 0 255 0 0 0') for l in L], 0),
        'line': (hdr + ['E: 0.000001 0003 0035 0001' + ' ' * 70000, 'E: 0.000001 0000 0000 0000'], 65),
        'f65537': (hdr + ['E: 0.000001 0003 0035 %04d' % (i % 700) for i in range(65537)] + ['E: 0.000001 0000 0000 0000'], 65),
        'f65536': (hdr + ['E: 0.000001 0003 0035 %04d' % (i % 700) for i in range(65536)] + ['E: 0.000001 0000 0000 0000'], 0),
        'time': (hdr + ['E: 9223372036854.775808 0003 0039 0001', 'E: 9223372036854.775808 0000 0000 0000'], 65),
    }
    for n, (lines, want) in cases.items():
        f = w(n + '.evemu', lines)
        for args in (['replay', f], ['replay', '--summary', f], ['render', f, '-o', os.path.join(d, n + '.svg')]):
            r = subprocess.run([S] + args, capture_output=True, text=True, timeout=50)
            if r.returncode != want: bad.append(f'{n} {args[0:2]}: rc {r.returncode} want {want}')
            if want == 65:
                if f'{n}.evemu:' not in r.stderr: bad.append(f'{n}: no file:line in {r.stderr[:80]!r}')
                if args[0] == 'render' and os.path.exists(os.path.join(d, n + '.svg')): bad.append(f'{n}: svg written')
                if len(r.stderr) > 400: bad.append(f'{n}: long message')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: recording limits refused with file:line, exit 65; values at the limit read')
finally:
    shutil.rmtree(d)
