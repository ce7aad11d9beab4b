#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, GestureScreenRecording as Rec, replay_gestures  # noqa: E402 (common.py)
# docs/gestures.md:28: a swipe needs the centroid to move swipeDistance (2.54 mm) "while moving
# at swipeMinimumVelocity (7.95 mm/s) or faster", and `velocity` is "the centroid's speed over the
# last velocityWindow" (100 ms). A finger that rests sends no frames, so its position at any moment
# of the rest is its last reported one.
# The finger rests 360 ms at x=100 mm, then moves 1.3 mm at 372 ms and 1.3 mm more at 384 ms, and
# lifts at 390 ms. Over the last 100 ms before 384 ms it moved 2.6 mm (26 mm/s): a swipe (begin at
# 384 ms, end at 390 ms). The binary divides the displacement by the time since the frame before
# the rest (384 ms), computing 6.8 mm/s, below the minimum, and recognises nothing.
rec = Rec()
rec.frame(0, [('d', 0, 10000, 10000)])
rec.frame(372, [('m', 0, 10130, 10000)])
rec.frame(384, [('m', 0, 10260, 10000)])
rec.frame(390, [('u', 0)])
gs = replay_gestures(rec)
kinds = [(g["kind"], g["phase"], g.get("velocity")) for g in gs]
if not any(g["kind"] == "swipe" for g in gs):
    print(f"BUG: no swipe for a 2.6 mm move made within the last 100 ms (26 mm/s over velocityWindow); got {kinds}")
    sys.exit(1)
slow = [g for g in gs if g["kind"] == "swipe" and g.get("velocity", 0) < 20]
if slow:
    print(f"BUG: swipe velocity {slow[0]['velocity']} mm/s, but the finger moved 2.6 mm in the last 100 ms: {kinds}")
    sys.exit(1)
print(f"OK: {kinds}")
