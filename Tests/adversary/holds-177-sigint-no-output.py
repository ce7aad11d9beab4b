#!/usr/bin/env python3
"""render interrupted by SIGINT/SIGTERM while reading (stdin held open) writes no output file and
leaves no temp file; an existing output stays as it was."""
import os, subprocess, sys, tempfile, shutil, time, signal
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp(); bad = []
try:
    data = open(E, 'rb').read()
    for sig in (signal.SIGINT, signal.SIGTERM):
        for existing in (False, True):
            out = os.path.join(d, 'o.svg')
            if existing: open(out, 'w').write('old\n')
            elif os.path.exists(out): os.remove(out)
            p = subprocess.Popen([S, 'render', '-', '-o', out], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            p.stdin.write(data[:15000]); p.stdin.flush(); time.sleep(0.7)
            p.send_signal(sig)
            try: p.wait(timeout=10)
            except subprocess.TimeoutExpired: p.kill(); bad.append(f'{sig.name}: did not stop')
            p.stdin.close()
            if existing and open(out).read() != 'old\n': bad.append(f'{sig.name}: existing output changed')
            if not existing and os.path.exists(out): bad.append(f'{sig.name}: output written')
            left = [f for f in os.listdir(d) if f != 'o.svg']
            if left: bad.append(f'{sig.name}: left {left}')
    if bad: print('BROKEN: ' + '; '.join(bad)); sys.exit(1)
    print('HELD: interrupted render writes nothing and leaves nothing')
finally:
    shutil.rmtree(d)
