#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# docs/decoder.md "Touch arbitration": "While a pen of a group is in proximity, the group's finger
# strokes in progress are cancelled with reason pen, and touches are not published until they
# lift". Proximity is BTN_TOOL_PEN (event-codes.rst: "the tool is in proximity of the device"),
# not whether strokes has seen the pen's position yet. A pen whose BTN_TOOL_PEN 1 came with
# ABS_DISTANCE but no ABS_X/ABS_Y (a libinput recording has no header values; the kernel sends
# an axis only when it changes) is in proximity, yet a finger landing meanwhile is published.
def fdown(tid,x,y): return [A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,tid),A(ABS_MT_POSITION_X,x),A(ABS_MT_POSITION_Y,y),K(BTN_TOUCH,1),A(ABS_X,x),A(ABS_Y,y)]
t = Rec(name="Test Finger", keys=[BTN_TOUCH], absd=TS_ABS, msc=False)
p = Rec()
p.frame(A(ABS_DISTANCE,5),K(BTN_TOOL_PEN,1),dt=0.005)                     # 0.005: pen near
t.frame(*fdown(1,100,100),dt=0.020)                                       # 0.020: finger lands
t.frame(A(ABS_MT_POSITION_X,110),A(ABS_X,110),dt=0.010)                   # 0.030
t.frame(A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0),dt=0.010)                 # 0.040: lifts
p.frame(K(BTN_TOOL_PEN,0),dt=0.045)                                       # 0.050: pen leaves
rc, out, err = replay([t.text(), p.text()], "--hover", "--group", "1,2")
fingers = [o for o in out if o.get("type") == "began" and o.get("device") == 1]
# control: the same with the pen's position known is suppressed
p2 = Rec()
p2.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_DISTANCE,5),K(BTN_TOOL_PEN,1),dt=0.005)
p2.frame(K(BTN_TOOL_PEN,0),dt=0.045)
rc2, out2, _ = replay([t.text(), p2.text()], "--hover", "--group", "1,2")
ctrl = [o for o in out2 if o.get("type") == "began" and o.get("device") == 1]
if ctrl: verdict(False, "control case published the finger too (arbitration off?)")
verdict(not fingers, "finger landing while the pen is in proximity (position not yet reported) was %s" %
        ("published as stroke %s" % fingers[0]["stroke"] if fingers else "suppressed"))
