#!/usr/bin/env python3
"""`strokes replay --gestures` on a recording whose clock steps backwards (evdev's default clock is
CLOCK_REALTIME, kernel-and-peers.md; recordings 04 and 10 carry wall-clock times) computes a
gesture's `duration` as "this frame's time minus the first finger's", unguarded: one finger resting
for 1.5 s of recorded frames (0.3 s, a 5 s step back, then 1.2 s of frames 100 ms apart) comes
out as a `tap` whose `duration` is -3 800 000 µs. protocol.md: `duration` is "µs from the first
finger down to this step"; gestures.md: a tap is fingers that "all lift before holdTimeout", and
"A gesture's steps never go back in time". Expected: no negative duration (and a finger resting
for 1.5 s of frames is not a tap).
Usage: python3 96-...py [BINARY]"""
import os, sys, json
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

ev = [E(10000000, 3, 0x2f, 0), E(10000000, 3, 0x39, 5), E(10000000, 3, 0x35, 1000), E(10000000, 3, 0x36, 1000),
      E(10000000, 1, 0x14a, 1), E(10000000, 0, 0, 0), E(10300000, 3, 0x35, 1001), E(10300000, 0, 0, 0)]
for i in range(12):            # the clock stepped back 5 s; the finger rests (one unit of jitter)
    t = 5000000 + i * 100000
    ev += [E(t, 3, 0x35, 1000 + i % 2), E(t, 0, 0, 0)]
ev += [E(6200000, 3, 0x39, -1), E(6200000, 1, 0x14a, 0), E(6200000, 0, 0, 0)]
path = os.path.join(scratch_dir('adv96-'), 'clock-step.evemu')
open(path, 'w').write(touch_header('Test Touch') + ''.join(ev))
gestures = [json.loads(l) for l in replay_output('--gestures', path).splitlines() if json.loads(l).get('type') == 'gesture']
negative = [g for g in gestures if g.get('duration', 0) < 0]
if negative:
    g = negative[0]
    broken('a finger resting for 1.5 s of recorded frames across a backward clock step gives gesture %s `%s %s` '
           'with duration %d µs' % (g['gesture'], g['kind'], g['phase'], g['duration']))
held('no negative gesture duration across a backward clock step: %s' % [(g['kind'], g['phase'], g['duration']) for g in gestures])
