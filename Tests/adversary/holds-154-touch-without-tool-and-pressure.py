#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "Pens": "A stroke is the tool touching ... A pen device without BTN_TOUCH touches
# while ABS_PRESSURE > 0; without either it only hovers." "Unknown tool: until the device sends
# a BTN_TOOL_* bit nothing is published." Pressure without BTN_TOUCH on a device with BTN_TOUCH
# is hover. A negative pressure is not > 0.
problems = []
# 1. BTN_TOUCH with no tool ever announced, then the pen arrives
r = Rec()
r.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_PRESSURE,300),K(BTN_TOUCH,1))
r.frame(A(ABS_X,1100))
r.frame(A(ABS_X,1200),K(BTN_TOUCH,0),A(ABS_PRESSURE,0))
r.frame(A(ABS_X,1200),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1300),K(BTN_TOUCH,1),A(ABS_PRESSURE,10))
r.frame(A(ABS_X,1400),K(BTN_TOUCH,0),A(ABS_PRESSURE,0))
rc, out, err = replay([r.text()], "--hover")
seq = [(o["type"], o.get("phase"), o.get("frame")) for o in out if o["type"] != "replayEnded"]
if seq != [("hover","proximityIn",4), ("began",None,5), ("ended",None,6)]: problems.append("no-tool: %s" % seq)
# 2. pressure without BTN_TOUCH on a BTN_TOUCH device: hover only
r = Rec()
r.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1100),A(ABS_PRESSURE,300))
r.frame(A(ABS_X,1200),A(ABS_PRESSURE,0))
rc, out, err = replay([r.text()], "--hover")
if any(o["type"] == "began" for o in out): problems.append("pressure without BTN_TOUCH began a stroke")
# 3. device without BTN_TOUCH: pressure > 0 is the contact
r = Rec(keys=[BTN_TOOL_PEN, BTN_STYLUS])
r.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1100),A(ABS_PRESSURE,300))
r.frame(A(ABS_X,1200),A(ABS_PRESSURE,200))
r.frame(A(ABS_X,1300),A(ABS_PRESSURE,0))
r.frame(A(ABS_X,1400),A(ABS_PRESSURE,-5))
r.frame(A(ABS_X,1500),A(ABS_PRESSURE,50))
r.frame(A(ABS_X,0),A(ABS_Y,0),A(ABS_PRESSURE,0),K(BTN_TOOL_PEN,0))
rc, out, err = replay([r.text()], "--hover")
seq = [(o["type"], o.get("frame"), o.get("pressure")) for o in out if o["type"] in ("began","moved","ended","cancelled")]
if seq != [("began",2,300), ("moved",3,200), ("ended",4,0), ("began",6,50), ("ended",7,50)]: problems.append("pressure-only: %s" % seq)
verdict(not problems, "; ".join(problems) or "tool-less touches, pressure-only contacts and hover as documented")
