#!/usr/bin/env python3
"""record with no usable device: missing node 66, a non-evdev file 66 ('not an evdev device'), bad options 64;
an existing -o file is never touched."""
import os, subprocess, sys, tempfile, shutil
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
d = tempfile.mkdtemp(); bad = []
try:
    out = os.path.join(d, 'r.evemu'); open(out, 'w').write('precious\n')
    for args, want in ([['/dev/input/event0', '-o', out], 66], [['/nonexistent', '-o', out], 66], [['/dev/null', '-o', out], 66],
                       [[out, '-o', out], 66], [[], 64], [['/dev/null', '--duration=0'], 64], [['/dev/null', '--format', 'xml'], 64]):
        r = subprocess.run([S, 'record'] + args, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
        if r.returncode != want: bad.append(f'{args}: rc {r.returncode} want {want}')
    if open(out).read() != 'precious\n': bad.append('existing -o file changed')
    if os.listdir(d) != ['r.evemu']: bad.append(f'left {os.listdir(d)}')
    r = subprocess.run([S, 'devices'], capture_output=True, text=True, timeout=20)
    if r.returncode != 0: bad.append(f'devices rc {r.returncode}')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: record refuses missing/non-evdev devices (66) and bad options (64), output untouched')
finally:
    shutil.rmtree(d)
