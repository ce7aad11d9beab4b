#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# docs/decoder.md "Touch arbitration": touches that land while a pen of the group is near "are
# not published until they lift, even if the pen leaves first" (libinput keeps them until they
# end). A SYN_DROPPED on the touch device while such a suppressed finger is still down turns it
# into a new `adopted` stroke: the resting hand the pen had suppressed is published, although no
# lift was seen. The drop rules keep an unpublished palm unpublished when it shows up again
# ("a palm sent again adopts its contact as a palm, never published"); a touch the pen suppressed
# deserves the same: its fate is unknown, so it should stay unpublished until its slot shows a
# lift or a new tracking ID.
def fdown(tid,x,y): return [A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,tid),A(ABS_MT_POSITION_X,x),A(ABS_MT_POSITION_Y,y),K(BTN_TOUCH,1),A(ABS_X,x),A(ABS_Y,y)]
t = Rec(name="Test Finger", keys=[BTN_TOUCH], absd=TS_ABS, msc=False)
p = Rec()
p.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1),dt=0.005)          # 0.005 pen near
t.frame(*fdown(1,100,100),dt=0.010)                                       # 0.010 hand lands
p.frame(K(BTN_TOOL_PEN,0),dt=0.010)                                       # 0.015 pen leaves
t.frame(A(ABS_MT_POSITION_X,110),A(ABS_X,110),dt=0.010)                   # 0.020 still suppressed
t.raw(EV_SYN,3,0); t.frame(A(ABS_MT_POSITION_X,115),dt=0.010)             # 0.030 drop
t.frame(A(ABS_MT_POSITION_X,120),A(ABS_MT_POSITION_Y,130),dt=0.010)       # 0.040 same finger
t.frame(A(ABS_MT_POSITION_X,130),dt=0.010)                                # 0.050
t.frame(A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0),dt=0.010)                 # 0.060 lift
rc, out, err = replay([t.text(), p.text()], "--group", "1,2")
fingers = [o for o in out if o.get("type") == "began" and o.get("device") == 1]
verdict(not fingers, "touch suppressed by the pen %s" %
        ("resurfaced after SYN_DROPPED as stroke %s flags %s" % (fingers[0]["stroke"], fingers[0].get("flags")) if fingers else "stayed suppressed until its lift"))
