#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, GestureScreenRecording as Rec, replay_gestures  # noqa: E402 (common.py)
# docs/gestures.md:28: swipe `velocity` is "the centroid's speed over the last velocityWindow";
# :19 "The centroid is the mean of their positions" (the gesture's fingers); :36 a swipe ends when
# "another finger goes down". A one-finger swipe moving at 100 mm/s (1 mm per 10 ms frame) ends
# when a second finger lands 150 mm away: the end step's centroid is still the swiping finger's
# (x/y show that), so its velocity must stay at or below 100 mm/s.
rec = Rec()
rec.frame(0, [('d', 0, 10000, 10000)])
for k in range(1, 11):
    rec.frame(100 + 10 * k, [('m', 0, 10000, 10000 + 100 * k)])
rec.frame(220, [('d', 1, 25000, 10000)])
rec.frame(300, [('u', 0), ('u', 1)])
gs = replay_gestures(rec)
sw = [g for g in gs if g["kind"] == "swipe"]
if not sw or sw[-1]["phase"] != "end":
    print(f"BUG: expected a swipe ending, got {[(g['kind'], g['phase']) for g in gs]}"); sys.exit(1)
end = sw[-1]
bad = [g for g in sw if g.get("velocity", 0) > 100.5]
if bad:
    print(f"BUG: swipe step velocity {bad[0]['velocity']} mm/s at {bad[0]['phase']} (the finger never moved faster "
          f"than 100 mm/s; the landing finger's position leaked into the velocity; end centroid mmX={end['mmX']} "
          f"mmY={end['mmY']}): {json.dumps(bad[0])}")
    sys.exit(1)
print("OK: swipe velocity ignores the finger that ended it")
