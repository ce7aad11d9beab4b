#!/usr/bin/env python3
"""A device name and file name with terminal escapes (ESC, BEL, C1 CSI) and invalid UTF-8 are printed escaped
by describe, replay --summary and error messages; the SVG stays well-formed XML without control characters."""
import os, subprocess, sys, tempfile, shutil, xml.dom.minidom
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
CTRL = set(range(0, 9)) | set(range(11, 32)) | {0x7f}
def ctl(b): return any(c in CTRL for c in b) or b'\xc2\x9b' in b or b'\x9b' in b
try:
    src = open(E, 'rb').read().replace(b'N: Atmel maXTouch Touchscreen', b'N: Evil \x1b]0;pwned\x07\x1b[2J<b>&amp;\xe9 ]]> \xc2\x9b31m "q"')
    f = os.path.join(d.encode(), b'e\x1b[2Jx\x07.evemu'); open(f, 'wb').write(src)
    for args in ([b'describe', f], [b'replay', b'--summary', f, E.encode()]):
        r = subprocess.run([S.encode()] + args, capture_output=True, timeout=30)
        if r.returncode != 0 or ctl(r.stdout) or ctl(r.stderr): bad.append(f'{args[0]}: raw control bytes or rc {r.returncode}')
    L = src.split(b'\n'); L[199] = b'E: garbage \x1b[31mRED\x07'; g = os.path.join(d.encode(), b'g\x1b[1m.evemu'); open(g, 'wb').write(b'\n'.join(L))
    r = subprocess.run([S.encode(), b'replay', g], capture_output=True, timeout=30)
    if r.returncode != 65 or ctl(r.stderr) or b':200:' not in r.stderr: bad.append(f'error message: {r.stderr[:120]!r}')
    out = os.path.join(d, 'o.svg')
    r = subprocess.run([S.encode(), b'render', f, b'-o', out.encode()], capture_output=True, timeout=30)
    data = open(out, 'rb').read(); xml.dom.minidom.parseString(data)
    if any(c in CTRL - {9, 10, 13} for c in data): bad.append('control byte in SVG')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: names and lines from a file are escaped everywhere; SVG well-formed')
finally:
    shutil.rmtree(d)
