#!/usr/bin/env python3
"""gestures.yaml: a `run:` argument holding a NUL ("\\0" in a double-quoted YAML string) is accepted by
`--check` and shown whole, but executed cut at the NUL.

gestures.md ("Commands"): "`run: [program, arg, …]`: the argument vector, executed as it is ...
nothing is split"; ("Configuration"): an invalid file "stops the client at start with file:line: what
is wrong and exit status 78"; README: "`strokes gestures --check` # file:line for anything wrong".
(An argument cannot hold a NUL; for the environment gestures.md says such a NUL becomes U+FFFD.)
Observed: `--check` exits 0 listing "safe\\u0000; rm -rf x"; each swipe runs the program with the
argument "safe"."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(config='', replay=REC03, speed=4)
g = scratch_dir('g98-'); gc = g + '/gestures.yaml'; out = g + '/out'
open(gc, 'w').write('rules:\n  - kind: swipe\n    run: ["/bin/sh", "-c", "printf \'%%s|\' \\"$0\\" >> %s", "safe\\0; rm -rf x"]\n' % out)
chk = subprocess.run([BIN, 'gestures', '--check', '--config', gc], capture_output=True, text=True, timeout=10)
if chk.returncode == 78 and gc + ':' in chk.stderr:
    held('a NUL in a run argument is refused by --check: ' + chk.stderr.strip()[-120:])
p = subprocess.Popen([BIN, 'gestures', '--socket', d.sock, '--config', gc], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
PROCS.append(p)
end = time.time() + 10
while time.time() < end and not (os.path.exists(out) and open(out).read()): time.sleep(0.2)
ran = open(out).read() if os.path.exists(out) else ''
if not ran: setup_error('no command ran (check exit %s)' % chk.returncode)
if ran.split('|')[0] != 'safe\0; rm -rf x':
    broken('run argument "safe\\0; rm -rf x": --check exit %d listing %s; the command received %r '
           '(gestures.md: "the argument vector, executed as it is"; an invalid file should stop with file:line, exit 78)'
           % (chk.returncode, chk.stdout.strip().splitlines()[-1][-60:], ran.split('|')[0]))
held('the argument arrived whole')
