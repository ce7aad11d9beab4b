#!/usr/bin/env python3
"""Exit statuses: 0 success; 64 usage (unknown option, missing argument, bad values); 66 missing/unreadable
input; 65 malformed recording with file:line, events already printed kept and no replayEnded."""
import os, subprocess, sys, tempfile, shutil, json
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
def rc(args, want, stdin=None):
    r = subprocess.run([S] + args, capture_output=True, timeout=30, stdin=stdin or subprocess.DEVNULL)
    if r.returncode != want: bad.append(f'{args}: rc {r.returncode} want {want}')
    return r
try:
    rc(['--version'], 0); rc(['--help'], 0); rc(['help', 'replay'], 0)
    rc(['bogus'], 64); rc(['replay'], 64); rc(['replay', '--bogus', E], 64); rc(['render', E], 64)
    rc(['render', E, '-o', 'x.svg', '--size', '0'], 64); rc(['render', E, '-o', 'x.svg', '--from', '2', '--to', '1'], 64)
    rc(['replay', '--group', '1,1', E, E], 64); rc(['devices', '--all', '--paths'], 64)
    rc(['replay', '/nonexistent/x'], 66); rc(['replay', ''], 66); rc(['replay', d], 66); rc(['describe', '/nonexistent'], 66)
    L = open(E).read().splitlines(); L[199] = 'E: garbage'; B = os.path.join(d, 'bad.evemu'); open(B, 'w').write('\n'.join(L) + '\n')
    r = rc(['replay', B], 65)
    lines = r.stdout.decode().splitlines()
    if not lines or any(json.loads(l)['type'] == 'replayEnded' for l in lines): bad.append('partial replay: no events kept, or replayEnded printed')
    if b'bad.evemu:200:' not in r.stderr: bad.append(f'no file:line: {r.stderr[:100]!r}')
    r = rc(['replay', '--summary', B], 65)
    if r.stdout: bad.append('--summary printed something for a malformed file')
    with open(E, 'rb') as fh: rc(['replay', '-'], 0, stdin=fh)
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: exit statuses 0/64/65/66 as documented, malformed replay keeps printed events, no replayEnded')
finally:
    shutil.rmtree(d)
