#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "No invented values": after SYN_DROPPED the position must be reported again before a
# contact is published (the lost events may have moved it; the kernel sends an axis only when it
# changes). For a pen: after a drop, proximity out, and a proximity in that sends ABS_X only, the
# stale pre-drop ABS_Y must not be published; the pen shows up once ABS_Y is reported.
r = Rec()
r.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1100))
r.raw(EV_SYN,3,0); r.frame(A(ABS_X,1150))
r.frame(K(BTN_TOOL_PEN,0))
r.frame(A(ABS_X,5000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,5100),A(ABS_PRESSURE,30),K(BTN_TOUCH,1))
r.frame(A(ABS_X,5200),A(ABS_Y,9100))
r.frame(A(ABS_PRESSURE,0),K(BTN_TOUCH,0))
rc, out, err = replay([r.text()], "--hover")
stale = [o for o in out if o.get("y") == 2000 and o.get("frame", 0) >= 4]
began = [o for o in out if o["type"] == "began"]
ok = not stale and len(began) == 1 and began[0]["y"] == 9100
verdict(ok, "after a drop the pen is published only once both coordinates are reported again" if ok else
        "stale position published: %s" % [(o["type"], o.get("phase"), o["x"], o["y"]) for o in stale + began])
