#!/usr/bin/env python3
"""`strokes daemon --replay FILE --loop` on a recording whose (valid) event times are near the
documented limit (seconds 9223372036853, i.e. 2^63 µs minus 1.8 s) dies with SIGILL after a few
rounds: Swift arithmetic overflow in GestureRecognizers.deadline(of:) (GestureRecognizers.swift:62),
the gesture timer's deadline (event time + a timeout) passing Int64.max while the round's event
times are still below it. No client is needed; with --speed 1 it dies after ~3 s, with --speed 0
at once. Expected (README, "Untrusted and long recordings"): "one whose times would pass 2^63 µs
in the next round stops looping with a warning" -- the daemon keeps serving.
Exits 1 while the bug is present, 0 when fixed."""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r07-')
S = 9223372036853          # whole seconds; the reader accepts seconds < 2^63 / 10^6

rec = ('# EVEMU 1.3\nN: late clock\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
       + ''.join('B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else 'B: 01 00 04 00 00 00 00 00 00\n' for i in range(12))
       + 'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
         'A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
         'E: {s}.000000 0003 002f 0\nE: {s}.000000 0003 0039 21\nE: {s}.000000 0003 0035 100\nE: {s}.000000 0003 0036 100\n'
         'E: {s}.000000 0001 014a 1\nE: {s}.000000 0000 0000 0\nE: {s}.010000 0003 0035 101\nE: {s}.010000 0000 0000 0\n'
         'E: {s}.020000 0003 0039 -1\nE: {s}.020000 0001 014a 0\nE: {s}.020000 0000 0000 0\n').format(s=S)
f = os.path.join(D, 'late.evemu'); open(f, 'w').write(rec)
sock = os.path.join(D, 's.sock')
# sanity: the file is valid
r = subprocess.run([BIN, 'replay', '--summary', f], capture_output=True, timeout=60)
print('replay --summary exit', r.returncode)
p = subprocess.run(['timeout', '8', BIN, 'daemon', '--replay', f, '--loop', '--speed', '1', '--socket', sock],
                   capture_output=True, env=dict(os.environ, STROKES_SOCKET=sock))
print('daemon exit', p.returncode, '(124 = still running after 8 s, as expected)')
for l in p.stderr.split(b'\n'):
    if b'runtime failure' in l or b'loop' in l.lower() and b'warning' in l:
        print('   ', l.strip()[:160]); break
sys.exit(0 if p.returncode == 124 else 1)
