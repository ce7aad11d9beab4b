#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "Leaving proximity": the frame in which a tool leaves publishes its `ended` and
# `proximityOut` with the values of the frame before (Wacom zeroes the axes in that frame).
# Tested with BTN_TOUCH released in the same frame, and without any BTN_TOUCH 0 at all.
problems = []
for release in (True, False):
    r = Rec()
    r.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_DISTANCE,10),A(ABS_TILT_X,20),K(BTN_TOOL_PEN,1),S(5))
    r.frame(A(ABS_X,1100),A(ABS_PRESSURE,300),K(BTN_TOUCH,1),S(5))
    r.frame(A(ABS_X,1200),A(ABS_PRESSURE,400),S(5))
    ev = [A(ABS_X,0),A(ABS_Y,0),A(ABS_PRESSURE,0),A(ABS_TILT_X,0),A(ABS_DISTANCE,0),K(BTN_TOOL_PEN,0),S(0)]
    if release: ev.append(K(BTN_TOUCH,0))
    r.frame(*ev, dt=0.1)
    rc, out, err = replay([r.text()], "--hover")
    end = [o for o in out if o["type"] in ("ended", "cancelled")]
    po = [o for o in out if o.get("phase") == "proximityOut"]
    if len(end) != 1 or end[0]["type"] != "ended": problems.append("release=%s: %s" % (release, [o["type"] for o in end])); continue
    e = end[0]
    if (e["x"], e["y"], e.get("pressure"), e.get("tiltX"), e.get("serial")) != (1200, 2000, 400, 20, 5) or e["frame"] != 4:
        problems.append("release=%s: ended carries %s" % (release, {k: e.get(k) for k in ("x","y","pressure","tiltX","serial","frame")}))
    if len(po) != 1 or po[0]["x"] != 1200 or out.index(po[0]) < out.index(e):
        problems.append("release=%s: proximityOut wrong %s" % (release, po))
verdict(not problems, "; ".join(problems) or "prox out while touching ends the stroke with the frame-before values, then proximityOut")
