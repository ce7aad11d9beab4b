#!/usr/bin/env python3
"""`strokes help bogus` prints the top-level help and exits 0; `strokes bogus` exits 64."""
import os, subprocess, sys
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..', '.build/debug/strokes'))
r = subprocess.run([S, 'help', 'bogus'], capture_output=True, text=True, timeout=30)
r2 = subprocess.run([S, 'bogus'], capture_output=True, text=True, timeout=30)
if r.returncode == 0:
    print(f'BROKEN: `strokes help bogus` exits 0 (prints the overview, no error) while `strokes bogus` exits '
          f'{r2.returncode}: a script checking `strokes help X` cannot tell X does not exist')
    sys.exit(1)
print(f'HELD: `strokes help bogus` exits {r.returncode}')
