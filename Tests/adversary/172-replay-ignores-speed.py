#!/usr/bin/env python3
"""replay --speed/--wait/--settle without --uinput are silently accepted and ignored
(render refuses --follow without --socket: 'Error: --follow needs --socket')."""
import os, subprocess, sys, time
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
bad = []
for opts in (['--speed', '10'], ['--wait'], ['--settle', '3']):
    r = subprocess.run([S, 'replay'] + opts + [E], capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    if r.returncode == 0:
        bad.append(' '.join(opts))
# --realtime --speed 10 takes the recorded 0.57 s: speed ignored
t = time.monotonic()
r = subprocess.run([S, 'replay', '--realtime', '--speed', '10', E], capture_output=True, timeout=30)
el = time.monotonic() - t
if r.returncode == 0 and el > 0.4:
    bad.append(f'--realtime --speed 10 (took {el:.2f} s, the recorded pace)')
if bad:
    print('BROKEN: replay accepts and ignores options documented "With --uinput": ' + '; '.join(bad))
    sys.exit(1)
print('HELD: --speed/--wait/--settle without --uinput are refused (or honoured)')
