#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# docs/gestures.md: "**Pens** get no gestures (a pen's stroke is drawing)."
# docs/decoder.md: "Multitouch pens (ABS_MT_TOOL_TYPE = MT_TOOL_PEN in a slot) stay contacts of
# their slot with toolType: "pen"".  A pen tap on such a device must not be a `tap`, and a pen
# and a finger together must not be a two-finger pinch.
MT = {ABS_X:(0,4095,0,0,10), ABS_Y:(0,4095,0,0,10), ABS_MT_SLOT:(0,9,0,0,0), ABS_MT_POSITION_X:(0,4095,0,0,10),
      ABS_MT_POSITION_Y:(0,4095,0,0,10), ABS_MT_TOOL_TYPE:(0,2,0,0,0), ABS_MT_TRACKING_ID:(0,65535,0,0,0)}
def dev(): return Rec(name="MT pen touchscreen", keys=[BTN_TOOL_PEN,BTN_TOOL_FINGER,BTN_TOUCH], absd=MT, msc=False)
problems = []
# 1. a pen tap (MT_TOOL_PEN = 1), 20 ms, 0.1 mm
r = dev()
r.frame(A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,1),A(ABS_MT_TOOL_TYPE,1),A(ABS_MT_POSITION_X,500),A(ABS_MT_POSITION_Y,500),K(BTN_TOUCH,1),K(BTN_TOOL_PEN,1),dt=0.01)
r.frame(A(ABS_MT_POSITION_X,501),dt=0.01)
r.frame(A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0),K(BTN_TOOL_PEN,0),dt=0.01)
r.frame(dt=1.0)
rc, out, err = replay([r.text()], "--gestures")
pens = {o["stroke"] for o in out if o.get("type") == "began" and o.get("toolType") == "pen"}
if not pens: problems.append("no pen stroke published at all (rc %d %s)" % (rc, err.strip()[:100]))
for o in out:
    if o.get("type") == "gesture" and set(o.get("strokes", [])) & pens:
        problems.append("pen tap gave gesture %s/%s on strokes %s" % (o["kind"], o["phase"], o["strokes"]))
# 2. a finger (slot 0) and a pen (slot 1) spreading apart
r = dev()
r.frame(A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,1),A(ABS_MT_POSITION_X,1000),A(ABS_MT_POSITION_Y,1000),
        A(ABS_MT_SLOT,1),A(ABS_MT_TRACKING_ID,2),A(ABS_MT_TOOL_TYPE,1),A(ABS_MT_POSITION_X,2000),A(ABS_MT_POSITION_Y,1000),K(BTN_TOUCH,1),dt=0.01)
for i in range(1, 30):
    r.frame(A(ABS_MT_SLOT,0),A(ABS_MT_POSITION_X,1000-i*20),A(ABS_MT_SLOT,1),A(ABS_MT_POSITION_X,2000+i*20),dt=0.01)
r.frame(A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,-1),A(ABS_MT_SLOT,1),A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0),dt=0.01)
rc, out, err = replay([r.text()], "--gestures")
pens = {o["stroke"] for o in out if o.get("type") == "began" and o.get("toolType") == "pen"}
kinds = sorted({(o["kind"], o["fingers"]) for o in out if o.get("type") == "gesture" and set(o.get("strokes", [])) & pens})
if kinds: problems.append("finger + pen gave gestures %s counting the pen as a finger" % kinds)
verdict(not problems, "; ".join(problems) or "MT_TOOL_PEN contacts get no gestures")
