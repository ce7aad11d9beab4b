#!/usr/bin/env python3
"""`strokes gestures`: a SIGHUP while its gestures.yaml is a FIFO (nobody writing) must change
nothing: the old rules keep acting on gestures and a valid file reloaded later applies.

gestures.md ("Acting on gestures", Configuration): "SIGHUP (`systemctl --user reload
strokes-gestures`) reads it again: an invalid file changes nothing (the error is logged); a valid
one replaces every rule at once". systemd/strokes-gestures.service: "Reads
~/.config/strokes/gestures.yaml again; an invalid file changes nothing (logged)."
Observed: the client blocks opening the FIFO: it runs no command for any gesture from then on
(the daemon's swipes keep coming), logs nothing, and a valid file + SIGHUP afterwards is not read."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(config='', replay=REC03, speed=4)         # a 4-finger swipe about every 0.4 s
g = scratch_dir('g91-'); gc = g + '/gestures.yaml'; out = g + '/out'
open(gc, 'w').write('rules:\n  - kind: swipe\n    shell: "echo A >> %s"\n' % out)
p = subprocess.Popen([BIN, 'gestures', '--socket', d.sock, '--config', gc],
                     stdout=subprocess.DEVNULL, stderr=open(g + '/err', 'wb'))
PROCS.append(p)
def count(ch):
    return open(out).read().count(ch) if os.path.exists(out) else 0
end = time.time() + 10
while time.time() < end and count('A') < 2: time.sleep(0.2)
if count('A') < 2: setup_error('no swipe command ran before the reload')

os.unlink(gc); os.mkfifo(gc)
os.kill(p.pid, signal.SIGHUP)
time.sleep(0.3)
a0 = count('A'); time.sleep(2.5); a1 = count('A')      # the old rules must keep acting
os.unlink(gc); open(gc, 'w').write('rules:\n  - kind: swipe\n    shell: "echo B >> %s"\n' % out)
os.kill(p.pid, signal.SIGHUP)
time.sleep(3)
b = count('B')
err = open(g + '/err').read()
problems = []
if a1 <= a0: problems.append('no command ran for 2.5 s of swipes after the SIGHUP (runs stayed at %d)' % a1)
if b == 0: problems.append('a valid file reloaded afterwards never took effect (0 runs of the new rule in 3 s)')
if 'not reloaded' not in err: problems.append('nothing logged for the FIFO')
if problems:
    broken('gestures.yaml a FIFO at SIGHUP: ' + '; '.join(problems) +
           ' (gestures.md: "an invalid file changes nothing (the error is logged)")')
held('a FIFO at SIGHUP changed nothing; the later valid file applied')
