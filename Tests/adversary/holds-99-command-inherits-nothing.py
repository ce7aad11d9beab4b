#!/usr/bin/env python3
"""holds-99: what a command inherits from `strokes gestures` (docs/gestures.md, "Commands"): its
standard input is /dev/null, it inherits no other descriptor of the client's (not the daemon
socket, not the event loop's, not a descriptor the client itself inherited without CLOEXEC), it
starts with every signal at its default and none blocked (even when the client was started with
SIGINT/SIGPIPE/SIGTERM ignored and signals blocked, as a shell's `&` or systemd's IgnoreSIGPIPE
do), and ended commands are reaped (no zombies after a burst).

glibc's posix_spawn leaves its two internal real-time signals (32, 33) ignored in every child it
starts (Python's os.posix_spawn does the same), so those two bits are tolerated.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *
from gestures_fake import *


GLIBC_INTERNAL = (1 << 31) | (1 << 32)   # SigIgn bits of signals 32 and 33

d = scratch_dir('adv105-')
f = Ctl(d)
inherited = os.open('/etc/hostname', os.O_RDONLY)
os.set_inheritable(inherited, True)


def hostile_start():
    for s in (signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM, signal.SIGUSR1):
        signal.signal(s, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR2, signal.SIGALRM, signal.SIGCHLD})


p = start_client(d, 'every: 0ms\nrules:\n  - kind: tap\n    run: [sleep, "4"]\n'
                    '  - kind: doubleTap\n    run: ["true"]\n',
                 pass_fds=(inherited,), preexec_fn=hostile_start)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s): %s' % (p.poll(), client_log(p)[-300:]))
f.send(G(1))
if not wait_for(lambda: children(p.pid), 5):
    setup_error('the tap rule started no command: %s' % client_log(p)[-300:])
time.sleep(0.3)
problems = []
kids = children(p.pid)
if len(kids) != 1: setup_error('expected one command, found %r' % kids)
k = kids[0]
out_target = os.readlink('/proc/%d/fd/1' % p.pid)
fds = {}
for fd in os.listdir('/proc/%d/fd' % k):
    try: fds[int(fd)] = os.readlink('/proc/%d/fd/%s' % (k, fd))
    except OSError: pass
if fds.get(0) != '/dev/null': problems.append('stdin is %r, not /dev/null' % fds.get(0))
for fd in (1, 2):
    if fds.get(fd) != out_target: problems.append('fd %d is %r, not the client\'s output %r' % (fd, fds.get(fd), out_target))
extra = {fd: t for fd, t in fds.items() if fd > 2}
if extra: problems.append('inherited descriptors %r' % extra)
st = {l.split(':')[0]: l.split(':')[1].strip() for l in open('/proc/%d/status' % k) if l.startswith('Sig')}
if int(st['SigBlk'], 16): problems.append('signals blocked: SigBlk %s' % st['SigBlk'])
if int(st['SigIgn'], 16) & ~GLIBC_INTERNAL: problems.append('signals ignored: SigIgn %s' % st['SigIgn'])
kill_children(p.pid)
# A burst of short commands: all reaped.
for i in range(40):
    f.send(G(100 + i, 'doubleTap'))
time.sleep(2)
zombies = [c for c in children(p.pid) if open('/proc/%d/stat' % c).read().rsplit(')', 1)[1].split()[0] == 'Z']
if zombies: problems.append('zombie children %r' % zombies)
if p.poll() is not None: problems.append('the client exited %s' % p.returncode)
if problems:
    fail('; '.join(problems))
ok('commands get /dev/null, the client\'s output, no other descriptor, default signals, and are reaped')
