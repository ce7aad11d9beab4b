#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "Tools": an eraser flip sends BTN_TOOL_RUBBER 1 and BTN_TOOL_PEN 0 in either order,
# sometimes a frame apart; the one set last is the tool; a different tool while touching gives
# `ended`, `hover proximityOut`, `hover proximityIn`, `began` in that order, in one frame.
# "Decided per frame": tool bits and BTN_TOUCH in either order within a frame give the same result.
def run(variant):
    r = Rec()
    r.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_DISTANCE,10),K(BTN_TOOL_PEN,1),S(7))
    r.frame(A(ABS_X,1100),A(ABS_PRESSURE,300),K(BTN_TOUCH,1),S(7))
    if variant == "same-frame-rubber-first":
        r.frame(A(ABS_X,1200),K(BTN_TOOL_RUBBER,1),K(BTN_TOOL_PEN,0),S(8))
    elif variant == "same-frame-pen-first":
        r.frame(A(ABS_X,1200),K(BTN_TOOL_PEN,0),K(BTN_TOOL_RUBBER,1),S(8))
    else:  # rubber a frame before pen 0
        r.frame(A(ABS_X,1200),K(BTN_TOOL_RUBBER,1),S(8))
        r.frame(A(ABS_X,1250),K(BTN_TOOL_PEN,0),S(8))
    r.frame(A(ABS_X,1300),S(8))
    r.frame(A(ABS_X,1300),A(ABS_PRESSURE,0),K(BTN_TOUCH,0),S(8))
    r.frame(K(BTN_TOOL_RUBBER,0))
    rc, out, err = replay([r.text()], "--hover")
    return [(o["type"], o.get("phase"), o.get("frame"), o.get("toolType"), o.get("stroke")) for o in out if o["type"] != "replayEnded"]
problems = []
for v in ("same-frame-rubber-first", "same-frame-pen-first", "frame-apart"):
    seq = run(v)
    want = [("hover","proximityIn",1,"pen",None), ("began",None,2,"pen",1), ("ended",None,3,"pen",1),
            ("hover","proximityOut",3,"pen",None), ("hover","proximityIn",3,"eraser",None), ("began",None,3,"eraser",2)]
    if seq[:6] != want: problems.append("%s: %s" % (v, seq[:6]))
    tail = [x for x in seq if x[0] == "ended" and x[4] == 2]
    if len(tail) != 1: problems.append("%s: eraser stroke not ended once" % v)
    if seq[-1][:2] != ("hover", "proximityOut") or seq[-1][3] != "eraser": problems.append("%s: no eraser proximityOut at the end" % v)
verdict(not problems, "; ".join(problems) or "eraser flip in every order: ended, proximityOut, proximityIn, began in one frame")
