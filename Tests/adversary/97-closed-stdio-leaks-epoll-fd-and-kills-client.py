#!/usr/bin/env python3
"""97: `strokes gestures` started with standard output and error closed (a launcher's `>&- 2>&-`,
a double-forking wrapper) puts its own event-loop descriptors at 1 and 2: every command it starts
then inherits the client's epoll instance as its standard output, and the client's first log line
(a command that exits non-zero) goes into its own eventfd and the client exits 74.

docs/gestures.md, "Commands": a command "inherits no other descriptor of the client's"; "a command
that exits non-zero ... is logged ... and the client goes on". Expected: the child's 0-2 are
/dev/null or closed, never one of the client's internal descriptors, and the client keeps running.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from gestures_fake import *


d = scratch_dir('adv97-')
f = Ctl(d)
cfg = ('every: 0ms\nrules:\n'
       '  - kind: tap\n    run: [sleep, "1"]\n'
       '  - kind: doubleTap\n    run: [sh, -c, "exit 3"]\n')


def close_stdout_stderr():
    os.close(1); os.close(2)


p = start_client(d, cfg, stdin=subprocess.DEVNULL, stdout=None, stderr=None, preexec_fn=close_stdout_stderr)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s)' % p.poll())
time.sleep(0.2)
f.send(G(1))
if not wait_for(lambda: children(p.pid), 5):
    setup_error('the tap rule started no command')
time.sleep(0.2)
problems = []
for k in children(p.pid):
    for fd in os.listdir('/proc/%d/fd' % k):
        try: target = os.readlink('/proc/%d/fd/%s' % (k, fd))
        except OSError: continue
        if target.startswith(('anon_inode:', 'socket:')):
            problems.append('the command (pid %d) holds fd %s -> %s, one of the client\'s own descriptors' % (k, fd, target))
wait_for(lambda: not children(p.pid), 5)   # sleep 1 ends by itself (status 0: nothing logged)
try:
    f.send(G(2, 'doubleTap'))   # a command that exits 3: the client logs it
except OSError:
    pass
time.sleep(1.0)
if p.poll() is not None:
    problems.append('the client exited with status %s after logging a failed command (it must go on)' % p.returncode)
if problems:
    fail('; '.join(problems))
ok('commands started with stdout/stderr closed inherit none of the client\'s descriptors, and the client goes on')
