#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# A device that is both a pen and a multitouch screen on one node (the pre-4.7 wacom_w8001 ISDv4
# "Wacom Serial Penabled 2FG Touchscreen": BTN_TOOL_PEN/RUBBER + ABS_X/Y + ABS_PRESSURE for the
# pen, ABS_MT_SLOT/POSITION for the fingers). docs/decoder.md "Pens" only makes slot-less devices
# pen devices, so the pen's proximity, hover and strokes (reported through ABS_X/ABS_Y,
# BTN_TOOL_PEN, BTN_TOUCH, never through a slot) vanish: no stroke, no hover, no diagnostic,
# no refusal. libinput (udev's input_id tags any ABS device with BTN_TOOL_PEN as a tablet) keeps
# the pen. The docs promise that what cannot be decoded is refused with a clear error (protocol A
# without single-touch axes) or counted; silently dropping every pen stroke is neither.
MT = {ABS_X:(0,4095,0,0,10), ABS_Y:(0,4095,0,0,10), ABS_PRESSURE:(0,255,0,0,0), ABS_MT_SLOT:(0,1,0,0,0),
      ABS_MT_POSITION_X:(0,4095,0,0,10), ABS_MT_POSITION_Y:(0,4095,0,0,10), ABS_MT_TRACKING_ID:(0,65535,0,0,0)}
r = Rec(name="Wacom Serial Penabled 2FG Touchscreen", keys=[BTN_TOOL_PEN,BTN_TOOL_RUBBER,BTN_TOOL_FINGER,BTN_TOUCH,BTN_STYLUS], absd=MT, msc=False)
r.frame(A(ABS_X,1000),A(ABS_Y,1000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1010),A(ABS_PRESSURE,100),K(BTN_TOUCH,1))
r.frame(A(ABS_X,1020),A(ABS_PRESSURE,120))
r.frame(A(ABS_X,1030),A(ABS_PRESSURE,0),K(BTN_TOUCH,0))
r.frame(K(BTN_TOOL_PEN,0))
r.frame(A(ABS_MT_SLOT,0),A(ABS_MT_TRACKING_ID,5),A(ABS_MT_POSITION_X,300),A(ABS_MT_POSITION_Y,300),K(BTN_TOUCH,1),K(BTN_TOOL_FINGER,1),A(ABS_X,300),A(ABS_Y,300))
r.frame(A(ABS_MT_TRACKING_ID,-1),K(BTN_TOUCH,0),K(BTN_TOOL_FINGER,0))
rc, out, err = replay([r.text()], "--hover")
d = tempfile.mkdtemp(prefix="strokes-adv-"); p = os.path.join(d, "r.evemu"); open(p, "w").write(r.text())
summ = subprocess.run([BIN, "replay", "--summary", p], capture_output=True, text=True, timeout=50)
pen_seen = any(o.get("toolType") in ("pen", "eraser") for o in out)
refused = rc != 0
import re
counted = bool(re.search(r"^device 1 [A-Za-z]+: \d+", summ.stdout, re.M)) or bool(err.strip())
ok = pen_seen or refused or counted
verdict(ok, "pen stroke on a pen+multitouch device: published=%s, refused=%s, reported=%s" % (pen_seen, refused, counted))
