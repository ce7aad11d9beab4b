#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, GestureScreenRecording as Rec, replay_gestures  # noqa: E402 (common.py)
# docs/gestures.md:25: tap = "1 to maxFingers (5) fingers go down and all lift before
# holdTimeout" (400 ms). Two fingers go down at 0 ms, one lifts at 100 ms, the other rests and
# lifts at 2000 ms: not all lifted before holdTimeout, so no tap (and no hold: a finger lifted).
rec = Rec()
rec.frame(0, [('d', 0, 10000, 10000), ('d', 1, 13000, 10000)])
rec.frame(100, [('u', 1)])
rec.frame(2000, [('u', 0)])
gs = replay_gestures(rec)
taps = [g for g in gs if g["kind"] == "tap"]
if taps:
    g = taps[0]
    print(f"BUG: a tap was reported although its last finger lifted {g['duration']/1000:.0f} ms after the first "
          f"went down (holdTimeout is 400 ms): {json.dumps(g)}")
    sys.exit(1)
print("OK: no tap for a sequence whose last finger lifted after holdTimeout")
