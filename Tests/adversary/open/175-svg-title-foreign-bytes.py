#!/usr/bin/env python3
"""A recording named caf\\xe9.evemu (Latin-1) is titled 'strokes: caf\\U0010ffe9.evemu' in the SVG:
a private-use code point instead of the documented '\\xe9' (or U+FFFD)."""
import os, subprocess, sys, tempfile, shutil, xml.dom.minidom
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp()
try:
    src = os.path.join(d.encode(), b'caf\xe9.evemu')
    shutil.copyfile(E.encode(), src)
    out = os.path.join(d, 'o.svg')
    r = subprocess.run([S.encode(), b'render', src, b'-o', out.encode()], capture_output=True, timeout=30)
    if r.returncode != 0:
        print(f'BROKEN: render of a Latin-1 file name failed rc={r.returncode} {r.stderr[:200]!r}'); sys.exit(1)
    doc = xml.dom.minidom.parse(out)
    title = ''.join(n.data for n in doc.getElementsByTagName('title')[0].childNodes if n.nodeType == n.TEXT_NODE)
    priv = [c for c in title if 0xE000 <= ord(c) <= 0xF8FF or ord(c) >= 0xF0000]
    if priv:
        print(f'BROKEN: SVG <title> is {title!r}: byte 0xE9 of the file name became '
              f'{", ".join("U+%X" % ord(c) for c in priv)} (README: "messages show its foreign bytes as \\xe9")')
        sys.exit(1)
    print(f'HELD: title {title!r}')
finally:
    shutil.rmtree(d)
