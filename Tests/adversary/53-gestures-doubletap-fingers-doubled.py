#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, GestureScreenRecording as Rec, replay_gestures  # noqa: E402 (common.py)
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
