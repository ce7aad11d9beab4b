#!/usr/bin/env python3
"""render --format png -o - | head -c 10: strokes prints rsvg-convert's 'Broken pipe' error and exits 70,
where the SVG path and replay end quietly (SIGPIPE) as a Unix filter does."""
import os, subprocess, sys
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', 'ReplayTests/Fixtures'))
E = os.path.join(FIX, '01-wacom-dth2242-touchscreen-10finger.evemu')
p = subprocess.Popen([S, 'render', E, '--format', 'png', '-o', '-'], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, restore_signals=True)
p.stdout.read(10); p.stdout.close()
err = p.stderr.read().decode(errors='replace'); rc = p.wait(timeout=50)
if rc == 70 or 'Broken pipe' in err:
    print(f'BROKEN: PNG to a pipe closed early: exit {rc}, stderr "{err.strip()[:160]}" '
          '(replay and SVG output end by SIGPIPE, rc -13, silently)')
    sys.exit(1)
print(f'HELD: rc={rc} stderr={err.strip()[:80]!r}')
