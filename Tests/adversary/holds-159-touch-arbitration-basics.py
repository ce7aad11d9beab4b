#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "Touch arbitration": while a pen of the group is in proximity, the group's finger
# strokes in progress are cancelled (reason pen), touches are not published until they lift even
# if the pen leaves first, a touch that lands after the pen left is a stroke again; gestures.md:
# a gesture with a cancelled stroke gets `cancel`.
def fdown(tid,x,y): return [A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,tid),A(ABS_MT_POSITION_X,x),A(ABS_MT_POSITION_Y,y),K(BTN_TOUCH,1),A(ABS_X,x),A(ABS_Y,y)]
def fmove(x): return [A(ABS_MT_SLOT,0),A(ABS_MT_POSITION_X,x),A(ABS_X,x)]
def fup(): return [A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0)]
t = Rec(name="Test Finger", keys=[BTN_TOUCH], absd=TS_ABS, msc=False); p = Rec()
t.frame(*fdown(1,100,100),dt=0.010)                              # 0.010 finger 1
t.frame(*fmove(101),dt=0.010)                                    # 0.020
t.frame(*fmove(102),dt=0.5)                                      # 0.520 (a hold is under way)
p.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1),dt=0.6)    # 0.600 pen near
t.frame(*fmove(103),dt=0.1)                                      # 0.620
t.frame(*fup(),dt=0.01)                                          # 0.630 finger 1 lifts
t.frame(*fdown(2,300,300),dt=0.02)                               # 0.650 finger 2 lands while near
p.frame(K(BTN_TOOL_PEN,0),dt=0.06)                               # 0.660 pen leaves
t.frame(*fmove(310),dt=0.02)                                     # 0.670 finger 2 still suppressed
t.frame(*fup(),dt=0.01)                                          # 0.680
t.frame(*fdown(3,500,500),dt=0.02)                               # 0.700 finger 3: a stroke
t.frame(*fup(),dt=0.01)
rc, out, err = replay([t.text(), p.text()], "--gestures", "--group", "1,2")
fs = [(o["type"], o["stroke"], o.get("reason")) for o in out if o.get("device") == 1 and o["type"] in ("began","ended","cancelled")]
g = [(o["kind"], o["phase"]) for o in out if o["type"] == "gesture"]
problems = []
if fs != [("began",1,None), ("cancelled",1,"pen"), ("began",2,None), ("ended",2,None)]: problems.append("finger strokes %s" % fs)
if ("hold", "begin") in g and ("hold", "cancel") not in g: problems.append("hold not cancelled: %s" % g)
verdict(not problems, "; ".join(problems) or "pen cancels, suppresses until lift, releases after; gesture cancelled")
