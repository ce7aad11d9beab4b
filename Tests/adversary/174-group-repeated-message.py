#!/usr/bin/env python3
"""replay --group 1,2 --group 1,2: refused with "--group '1,2' names device 1 twice", which it does not."""
import os, subprocess, sys
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
A = os.path.join(FIX, '01-wacom-dth2242-touchscreen-10finger.evemu')
B = os.path.join(FIX, '18-wacom-dth2242-pen-buttons.evemu')
r = subprocess.run([S, 'replay', '--summary', '--group', '1,2', '--group', '1,2', A, B],
                   capture_output=True, text=True, timeout=30)
err = r.stderr.splitlines()[0] if r.stderr else ''
if "'1,2' names device 1 twice" in err:
    print(f'BROKEN: a repeated --group is refused with a false message: "{err}" (the group 1,2 names '
          'device 1 once; the problem is device 1 in two groups, or the repetition could be accepted)')
    sys.exit(1)
print(f'HELD: rc={r.returncode} {err!r}')
