#!/usr/bin/env python3
"""render never leaves a partial/corrupt output: a malformed recording leaves an existing file as it was,
no temp file stays, a directory/missing dir/read-only place gives 73, /dev/full 74."""
import os, subprocess, sys, tempfile, shutil
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
try:
    L = open(E).read().splitlines(); L[199] = 'E: garbage line'
    B = os.path.join(d, 'bad.evemu'); open(B, 'w').write('\n'.join(L) + '\n')
    out = os.path.join(d, 'keep.svg'); open(out, 'w').write('precious\n')
    r = subprocess.run([S, 'render', B, '-o', out], capture_output=True, text=True, timeout=30)
    if r.returncode != 65 or 'bad.evemu:200:' not in r.stderr: bad.append(f'malformed: rc {r.returncode} {r.stderr!r}')
    if open(out).read() != 'precious\n': bad.append('existing file changed by a failed render')
    for o in ['keep.png']:
        r = subprocess.run([S, 'render', B, '-o', os.path.join(d, o)], capture_output=True, timeout=30)
        if os.path.exists(os.path.join(d, o)): bad.append(f'{o} created by a failed render')
    os.mkdir(os.path.join(d, 'dir'))
    for o, want in [(os.path.join(d, 'dir'), 73), (os.path.join(d, 'no', 'x.svg'), 73), ('/proc/x.svg', 73), ('/dev/full', (73, 74))]:
        r = subprocess.run([S, 'render', E, '-o', o], capture_output=True, timeout=30)
        if r.returncode not in (want if isinstance(want, tuple) else (want,)): bad.append(f'-o {o}: rc {r.returncode}, expected {want}')
    left = [f for f in os.listdir(d) if 'tmp' in f] + [f for f in os.listdir(os.path.join(d, 'dir'))]
    if left: bad.append(f'left behind: {left}')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: failed renders leave no partial file, existing output untouched, 73/74 exit codes')
finally:
    shutil.rmtree(d)
