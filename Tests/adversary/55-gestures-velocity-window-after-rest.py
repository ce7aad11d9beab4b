#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HDR = """N: Test Touchscreen
I: 0003 1234 5678 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 29999 0 0 100
A: 01 0 19999 0 0 100
A: 2f 0 9 0 0 0
A: 35 0 29999 0 0 100
A: 36 0 19999 0 0 100
A: 39 0 65535 0 0 0
"""
# A touchscreen 300 x 200 mm, 100 units per mm.
class Rec:
    def __init__(self): self.ev = []; self.tid = 100; self.down = set()
    def _e(self, ms, typ, code, val):
        us = int(round(ms * 1000)); self.ev.append(f"E: {us//1000000}.{us%1000000:06d} {typ:04x} {code:04x} {val}")
    def frame(self, ms, ops):
        before = len(self.down)
        for op in ops:
            self._e(ms, 3, 0x2f, op[1])
            if op[0] == 'd': self.tid += 1; self._e(ms, 3, 0x39, self.tid); self.down.add(op[1])
            if op[0] in 'dm': self._e(ms, 3, 0x35, int(op[2])); self._e(ms, 3, 0x36, int(op[3]))
            if op[0] == 'u': self._e(ms, 3, 0x39, -1); self.down.discard(op[1])
        if (before == 0) != (len(self.down) == 0): self._e(ms, 1, 0x14a, 1 if self.down else 0)
        self._e(ms, 0, 0, 0)
    def text(self): return HDR + "\n".join(self.ev) + "\n"
def replay_gestures(rec):
    d = tempfile.mkdtemp(prefix="strokes-repro-")
    try:
        p = os.path.join(d, "r.evemu"); open(p, "w").write(rec.text())
        r = subprocess.run([BIN, "replay", "--gestures", p], capture_output=True, text=True, timeout=30)
        return [json.loads(l) for l in r.stdout.splitlines() if l.strip() and json.loads(l).get("type") == "gesture"]
    finally:
        shutil.rmtree(d, ignore_errors=True)
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
