#!/usr/bin/env python3
"""`strokes replay --realtime` ("keep the recorded timing between frames") and `strokes daemon
--replay FILE --speed 1` ("1 is the recorded pace") pace frames against the recording's first
timestamp, not the intervals between frames. When the recording's clock steps backwards (evdev's
default clock is CLOCK_REALTIME, kernel-and-peers.md; recordings 04 and 10 carry wall-clock epoch
times, and concatenated/auto-restarted recordings restart their clock), every frame after the step
is "late" and the rest of the recording is emitted in one burst until its times catch up with the
first frame's. Here: 0.1 s of frames, a step back of 5 s, then 1.2 s of frames 100 ms apart: the
recorded pace takes ~1.3 s; strokes emits the 1.2 s in a few milliseconds. (The daemon's looping
already handles times that go backwards, README "Untrusted and long recordings"; the pacing
within a round does not.)
Usage: python3 92-...py [BINARY]"""
import os, sys, time, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

ev = [E(10000000, 3, 0x2f, 0), E(10000000, 3, 0x39, 5), E(10000000, 3, 0x35, 100), E(10000000, 3, 0x36, 100),
      E(10000000, 0, 0, 0), E(10100000, 3, 0x35, 101), E(10100000, 0, 0, 0)]
for i in range(12):            # the clock stepped back 5 s: 12 frames 100 ms apart
    t = 5000000 + i * 100000
    ev += [E(t, 3, 0x35, 110 + i), E(t, 0, 0, 0)]
ev += [E(6200000, 3, 0x39, -1), E(6200000, 0, 0, 0)]
path = os.path.join(scratch_dir('adv92-'), 'clock-step.evemu')
open(path, 'w').write(touch_header('Test Touch') + ''.join(ev))
RECORDED_AFTER_STEP = 1.2      # seconds of recorded frames after the step

problems = []
t0 = time.time()
try:
    r = subprocess.run([BIN, 'replay', '--realtime', path], capture_output=True, text=True, timeout=30)
except subprocess.TimeoutExpired:
    broken('replay --realtime did not finish in 30 s')
took = time.time() - t0
if r.returncode != 0: setup_error('replay --realtime exit %d: %s' % (r.returncode, r.stderr[-300:]))
if took < 0.6 * RECORDED_AFTER_STEP:
    problems.append('replay --realtime played %.1f s of recorded frames (after a backward clock step) in %.2f s'
                    % (RECORDED_AFTER_STEP, took))

d = Daemon(replay=path, loop=False, speed=1)
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe', 'resumeAfter': 1})
arrivals = {}
end = time.time() + 15
while time.time() < end:
    m = c.recv(timeout=5)
    if m is None: break
    if m.get('type') in ('moved', 'ended'): arrivals[m['time']] = time.time()
    if m.get('type') == 'ended': break
c.close(); d.stop()
if 5000000 not in arrivals or 6200000 not in arrivals:
    setup_error('daemon did not deliver the frames after the step: %s' % sorted(arrivals))
span = arrivals[6200000] - arrivals[5000000]
if span < 0.6 * RECORDED_AFTER_STEP:
    problems.append('daemon --replay --speed 1 delivered frames recorded %.1f s apart (after a backward clock '
                    'step) within %.3f s' % (RECORDED_AFTER_STEP, span))
if problems: broken('; '.join(problems))
held('the recorded pace is kept across a backward clock step')
