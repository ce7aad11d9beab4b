#!/usr/bin/env python3
"""render -o over an existing 0600 file replaces it with a 0644 one (temp + rename drops the mode)."""
import os, subprocess, sys, tempfile, shutil, stat
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp()
old = os.umask(0o022)
try:
    out = os.path.join(d, 'private.svg')
    open(out, 'w').write('old\n'); os.chmod(out, 0o600)
    r = subprocess.run([S, 'render', E, '-o', out], capture_output=True, timeout=30)
    mode = stat.S_IMODE(os.stat(out).st_mode)
    if r.returncode != 0:
        print(f'HELD: (render failed rc={r.returncode})'); sys.exit(0)
    if mode != 0o600:
        print(f'BROKEN: render -o over an existing mode-0600 file leaves it mode {oct(mode)} '
              f'(shell redirection and cp keep an existing file\'s mode)')
        sys.exit(1)
    print('HELD: the existing file keeps mode 0600')
finally:
    os.umask(old); shutil.rmtree(d)
