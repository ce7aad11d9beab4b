#!/usr/bin/env python3
"""PNG output (file, .PNG, --format png -o -) is a complete PNG (every chunk CRC, IEND last) of the SVG's size."""
import os, subprocess, sys, tempfile, shutil, struct, zlib, re
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
def png(data):
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'signature'
    p = 8; ch = []
    while p < len(data):
        n, = struct.unpack('>I', data[p:p+4]); t = data[p+4:p+8]; body = data[p+8:p+8+n]
        crc, = struct.unpack('>I', data[p+8+n:p+12+n]); assert zlib.crc32(t + body) & 0xffffffff == crc, f'crc {t}'
        ch.append(t); p += 12 + n
        if t == b'IEND': break
    assert ch[0] == b'IHDR' and ch[-1] == b'IEND' and p == len(data), 'structure'
    return struct.unpack('>II', data[16:24])
d = tempfile.mkdtemp(); bad = []
try:
    for rec in ['03-atmel-maxtouch-touchscreen-4finger-drag.evemu', '10-wacom-intuos5-touch-indirect-2finger-circle.evemu']:
        E = os.path.join(FIX, rec)
        svg = os.path.join(d, 'a.svg'); subprocess.run([S, 'render', E, '-o', svg], check=True, timeout=30)
        m = re.search(r'<svg[^>]*width="(\d+)" height="(\d+)"', open(svg).read()); want = (int(m.group(1)), int(m.group(2)))
        for args in (['-o', os.path.join(d, 'a.png')], ['-o', os.path.join(d, 'a.PNG')]):
            subprocess.run([S, 'render', E] + args, check=True, timeout=30)
            got = png(open(args[1], 'rb').read())
            if got != want: bad.append(f'{rec} {args}: {got} vs svg {want}')
        r = subprocess.run([S, 'render', E, '--format', 'png', '-o', '-'], capture_output=True, timeout=30)
        if png(r.stdout) != want: bad.append(f'{rec} stdout size')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: PNGs complete, CRCs valid, size equals the SVG\'s')
except AssertionError as e:
    print(f'BROKEN: invalid PNG: {e}'); sys.exit(1)
finally:
    shutil.rmtree(d)
