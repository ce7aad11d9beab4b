#!/usr/bin/env python3
"""render --line-width 1e308 is refused with 'must be above 0', which it is."""
import os, subprocess, sys, tempfile, shutil
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu')
d = tempfile.mkdtemp()
try:
    r = subprocess.run([S, 'render', E, '-o', os.path.join(d, 'x.svg'), '--line-width', '1e308'],
                       capture_output=True, text=True, timeout=30)
    err = r.stderr.splitlines()[0] if r.stderr else ''
    if r.returncode != 0 and 'must be above 0' in err and 'at most' not in err:
        print(f'BROKEN: --line-width 1e308 refused (rc {r.returncode}) with "{err}": the value is above 0; '
              'the message should say the real bound')
        sys.exit(1)
    print(f'HELD: rc={r.returncode} {err!r}')
finally:
    shutil.rmtree(d)
