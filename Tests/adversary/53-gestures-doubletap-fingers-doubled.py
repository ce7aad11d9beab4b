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
# docs/gestures.md:18-19: "The fingers of a gesture are the strokes of the sequence that were
# down when it was recognised ... and `fingers` is their count"; :26 doubleTap is "a tap ... with as
# many fingers" whose `strokes` (only) "holds both taps' strokes". docs/protocol.md: `fingers` is
# "the fingers involved". A one-finger double tap must say fingers 1 (a `fingers: 1` doubleTap
# rule in strokes gestures must match it).
rec = Rec()
rec.frame(0, [('d', 0, 10000, 10000)]); rec.frame(50, [('u', 0)])
rec.frame(150, [('d', 0, 10000, 10000)]); rec.frame(200, [('u', 0)])
gs = replay_gestures(rec)
dts = [g for g in gs if g["kind"] == "doubleTap"]
taps = [g for g in gs if g["kind"] == "tap"]
if len(taps) != 2 or len(dts) != 1:
    print(f"BUG: expected 2 taps and 1 doubleTap, got {[(g['kind'], g['fingers']) for g in gs]}"); sys.exit(1)
if dts[0]["fingers"] != 1:
    print(f"BUG: one-finger double tap reported with fingers={dts[0]['fingers']} (strokes {dts[0]['strokes']}); "
          f"each tap had fingers={[t['fingers'] for t in taps]}: {json.dumps(dts[0])}")
    sys.exit(1)
print("OK: one-finger double tap has fingers 1")
