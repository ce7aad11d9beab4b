#!/usr/bin/env python3
"""Low severity. A device name containing NUL (evemu `N: a<NUL>b`, libinput YAML "a\\0b", or a
kernel device name set through uinput by anything) reaches `strokes gestures` commands as
STROKES_GESTURE_DEVICE_NAME=a -- silently cut at the NUL -- while `strokes gestures --dry-run`
reports "a\\u0000b…" for the same gesture. docs/gestures.md ("--dry-run"): "with the same rules,
limits and environment as a real run". Expected: the same value in both (e.g. NUL escaped or
replaced in the variable, as in the dry run). Exits 1 while the bug is present, 0 when fixed."""
import json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r09-')
rec = (b'# EVEMU 1.3\nN: left\x00right\nI: 0018 0000 0000 0000\nP: 02 00 00 00 00 00 00 00\nB: 00 0b 00 00 00 00 00 00 00\n'
       + b''.join(b'B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else b'B: 01 00 04 00 00 00 00 00 00\n' for i in range(12))
       + b'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 02\n'
         b'A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\nA: 39 0 65535 0 0 0\n'
         b'E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 415\nE: 0.000001 0003 0036 107\n'
         b'E: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\nE: 0.020000 0003 0039 -1\nE: 0.020000 0001 014a 0\nE: 0.020000 0000 0000 0\n')
f = os.path.join(D, 'nul.evemu'); open(f, 'wb').write(rec)
cfg = os.path.join(D, 'g.yaml'); open(cfg, 'w').write('rules:\n  - name: t\n    kind: tap\n    run: [/usr/bin/env]\n')
sock = Daemon(replay=f, loop=True, speed=1).sock   # killed when the script ends
env = dict(os.environ, STROKES_SOCKET=sock)
dry = subprocess.run(['timeout', '3', BIN, 'gestures', '--socket', sock, '--config', cfg, '--dry-run'], capture_output=True, env=env)
real = subprocess.run(['timeout', '3', BIN, 'gestures', '--socket', sock, '--config', cfg], capture_output=True, env=env)
dry_vals = [json.loads(l)['env'].get('STROKES_GESTURE_DEVICE_NAME') for l in dry.stdout.decode().splitlines() if l.startswith('{')]
real_vals = [l.split('=', 1)[1] for l in real.stdout.decode('utf-8', 'replace').splitlines() if l.startswith('STROKES_GESTURE_DEVICE_NAME=')]
print('dry run :', dry_vals[:1])
print('real run:', real_vals[:1])
if not dry_vals or not real_vals:
    print('no gesture seen'); sys.exit(2)
sys.exit(0 if dry_vals[0] == real_vals[0] else 1)
