#!/usr/bin/env python3
"""A recording whose file name is not valid UTF-8 (Linux file names are bytes: Latin-1 names from
old archives, `unzip` of a Windows zip) could not be read at all: `strokes describe/replay/render
FILE` said "FILE: cannot open: No such file or directory" (exit 66) for a file that exists and is
readable; the arguments were decoded lossily (bytes -> U+FFFD) and the path re-encoded named
another file. Expected: the file is read, `-o` writes under the name given, and an error shows the
foreign bytes as \\xNN. Exits 1 while the bug is present, 0 when fixed."""
import os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, broken, held)

D = scratch_dir('r49-').encode()
f = os.path.join(D, b'caf\xe9-touch.evemu')     # "cafe" with a Latin-1 e-acute
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       '../ReplayTests/Fixtures/03-atmel-maxtouch-touchscreen-4finger-drag.evemu'), 'rb') as src:
    open(f, 'wb').write(src.read())
out = os.path.join(D, b'caf\xe9.svg')
for args in (['describe', f], ['replay', f], ['render', f, '-o', out]):
    p = subprocess.run([BIN] + args, capture_output=True, timeout=60)
    if p.returncode != 0:
        broken('%s exit %s: %s' % (args[0], p.returncode, p.stderr.strip()[:120]))
if not os.path.exists(out) or b'<path' not in open(out, 'rb').read():
    broken('render -o did not write the SVG under its Latin-1 name')
p = subprocess.run([BIN, 'describe', os.path.join(D, b'gone\xe9')], capture_output=True, timeout=60)
if p.returncode != 66 or b'gone\\xe9: cannot open: No such file' not in p.stderr:
    broken('a missing Latin-1 name: exit %s, %r' % (p.returncode, p.stderr[:160]))
held('a file name that is not UTF-8 opens, is written, and is shown as its bytes')
