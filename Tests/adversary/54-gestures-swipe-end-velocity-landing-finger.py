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
