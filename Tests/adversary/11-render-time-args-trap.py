#!/usr/bin/env python3
"""strokes render traps (SIGILL, Swift runtime failure) on --from/--to NaN, inf or huge values,
and on --follow with a huge value, instead of refusing them with a usage error (exit 64), as it
does for --from -1, --follow inf, --size nan, ...

Run: python3 01-render-time-args-trap.py /path/to/strokes
Exit 1 = BROKEN (a trap), 0 = HELD, 2 = setup error.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC03
TMP = scratch_dir('advx-render-')

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC):
        print('setup: binary or recording missing'); return 2
    out = os.path.join(TMP, 'o.svg')
    # a control: a negative value is refused cleanly with the usage status 64
    r = subprocess.run([BIN, 'render', REC, '-o', out, '--from', '-1'], capture_output=True, text=True, timeout=60)
    if r.returncode != 64:
        print('setup: expected --from -1 to be a usage error (64), got', r.returncode); return 2
    broken = []
    for args in (['--to', 'nan'], ['--from', 'nan'], ['--to', 'inf'], ['--from', '1e300'], ['--to', '1e13']):
        r = subprocess.run([BIN, 'render', REC, '-o', out] + args, capture_output=True, text=True, timeout=60)
        trap = r.returncode < 0 or r.returncode == 132 or 'runtime failure' in r.stderr
        line = next((l for l in r.stderr.splitlines() if 'runtime failure' in l), '')
        print('render %-14s -> exit %s %s' % (' '.join(args), r.returncode, line.strip()))
        if trap: broken.append(' '.join(args))
    # --follow with a daemon
    d = Daemon(replay=REC, loop=False, speed=0)
    r = subprocess.run([BIN, 'render', '--socket', d.sock, '-o', out, '--follow', '1e300'], capture_output=True, text=True, timeout=60)
    line = next((l for l in r.stderr.splitlines() if 'runtime failure' in l), '')
    print('render --socket --follow 1e300 -> exit %s %s' % (r.returncode, line.strip()))
    if r.returncode < 0 or r.returncode == 132 or 'runtime failure' in r.stderr:
        broken.append('--follow 1e300')
    if broken:
        print('BROKEN: strokes render crashes (Swift runtime trap, SIGILL) instead of a usage error for: ' + ', '.join(broken))
        return 1
    print('HELD: strokes render refuses NaN/inf/huge time arguments without crashing')
    return 0

if __name__ == '__main__':
    sys.exit(main())
