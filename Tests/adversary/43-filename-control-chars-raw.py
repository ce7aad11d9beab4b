#!/usr/bin/env python3
"""A recording's file name is printed raw to terminal-oriented output: `strokes describe`'s
`file:` line, `strokes replay --summary A B`'s `file:` lines, every `file:line:` error of
describe/replay/render, and the daemon's log (`path=replay:FILE`, `cannot run: FILE:LINE: …`).
A name like $'x\\e]0;owned\\a\\e[2J.evemu' (from an attachment, a tarball) sets the terminal title /
clears the screen; a newline in it forges extra lines (e.g. a fake `device 1:` line).
The device name on the same lines is escaped (\\u{1b}); the file name is not.
Expected (docs/decoder.md "Recordings": error messages escape quotes, control characters;
fuzz oracle in README: messages "free of control characters"): no raw C0/C1 control characters.
Exits 1 while the bug is present, 0 when fixed."""
import os, re, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r04-')
CTL = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]')

def evemu(xmin=0):
    h = b'# EVEMU 1.3\nN: plain\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
    for i in range(12):
        h += b'B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else b'B: 01 00 04 00 00 00 00 00 00\n'
    h += (b'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
          b'A: 00 %d 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
          b'E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 415\nE: 0.000001 0003 0036 107\n'
          b'E: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\nE: 0.020000 0003 0039 -1\nE: 0.020000 0001 014a 0\nE: 0.020000 0000 0000 0\n') % xmin
    return h

good = os.path.join(D, 'x\x1b]0;owned\x07\x1b[2J\u009b1m.evemu').encode()
bad = os.path.join(D, 'y\x1b]0;owned\x07\nfake: line.evemu').encode()
open(good, 'wb').write(evemu())
open(bad, 'wb').write(evemu(900))       # min 900 > max 799: file:line error
found = False
def check(label, args, stream):
    global found
    p = subprocess.run([BIN] + args, capture_output=True, timeout=60)
    out = p.stdout if stream == 'stdout' else p.stderr
    hits = sorted(set(CTL.findall(out)))
    print('%-34s exit %-3s raw control chars on %s: %s' % (label, p.returncode, stream, hits))
    if hits: found = True
check('describe GOOD', ['describe', good], 'stdout')
check('replay --summary GOOD GOOD', ['replay', '--summary', good, good], 'stdout')
check('describe BAD (error)', ['describe', bad], 'stderr')
check('replay BAD (error)', ['replay', bad], 'stderr')
check('render BAD (error)', ['render', bad, '-o', os.path.join(D, 'o.svg')], 'stderr')
# daemon log
sock = os.path.join(D, 's.sock')
p = subprocess.run(['timeout', '20', BIN, 'daemon', '--replay', bad, '--socket', sock], capture_output=True,
                   env=dict(os.environ, STROKES_SOCKET=sock))
hits = sorted(set(CTL.findall(p.stderr)))
print('%-34s exit %-3s raw control chars on stderr: %s' % ('daemon --replay BAD (log)', p.returncode, hits))
found = found or bool(hits)
sys.exit(1 if found else 0)
