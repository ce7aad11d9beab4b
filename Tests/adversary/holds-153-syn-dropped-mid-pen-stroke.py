#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# decoder.md "Unknown tool": after SYN_DROPPED a live pen stroke is cancelled (eventsDropped), the
# tool leaves proximity, and the tool is unknown again until its next BTN_TOOL_*; nothing is
# published meanwhile. Checked for evemu and for evtest's own SYN_DROPPED line
# ("Event: time ..., >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<").
import re
r = Rec()
r.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_DISTANCE,10),K(BTN_TOOL_PEN,1),S(123))
r.frame(A(ABS_X,1100),A(ABS_PRESSURE,300),K(BTN_TOUCH,1),S(123))
r.frame(A(ABS_X,1200),A(ABS_PRESSURE,400),S(123))
r.raw(EV_ABS,ABS_X,1250); r.raw(EV_SYN,3,0); r.raw(EV_ABS,ABS_X,1260); r.frame(A(ABS_Y,2100))
r.frame(A(ABS_X,1300),S(123))
r.frame(A(ABS_X,1400),K(BTN_TOUCH,0),A(ABS_PRESSURE,0),S(123))
r.frame(A(ABS_X,1500),A(ABS_PRESSURE,30),K(BTN_TOUCH,1),S(123))
r.frame(A(ABS_X,0),A(ABS_Y,0),K(BTN_TOUCH,0),K(BTN_TOOL_PEN,0),S(0))
r.frame(A(ABS_X,3000),A(ABS_Y,3000),K(BTN_TOOL_PEN,1),S(123))
r.frame(A(ABS_X,3100),A(ABS_PRESSURE,30),K(BTN_TOUCH,1),S(123))
r.frame(A(ABS_X,3200),A(ABS_PRESSURE,0),K(BTN_TOUCH,0),S(123))
want = [("hover","proximityIn",None), ("began",None,1), ("moved",None,1), ("cancelled",None,1), ("hover","proximityOut",None),
        ("hover","proximityIn",None), ("began",None,2), ("ended",None,2)]
NAMES = {0:"ABS_X",1:"ABS_Y",0x18:"ABS_PRESSURE",0x19:"ABS_DISTANCE",0x1a:"ABS_TILT_X",0x1b:"ABS_TILT_Y",0x28:"ABS_MISC"}
KN = {0x140:"BTN_TOOL_PEN",0x141:"BTN_TOOL_RUBBER",0x14a:"BTN_TOUCH",0x14b:"BTN_STYLUS",0x14c:"BTN_STYLUS2"}
def evtest(rec):
    L = ["Input driver version is 1.0.1", "Input device ID: bus 0x3 vendor 0x56a product 0x333 version 0x110",
         'Input device name: "Test Pen"', "Supported events:", "  Event type 0 (EV_SYN)", "  Event type 1 (EV_KEY)"]
    L += ["    Event code %d (%s)" % (k, KN[k]) for k in PEN_KEYS]
    L.append("  Event type 3 (EV_ABS)")
    for c, (mn, mx, fz, fl, res) in sorted(PEN_ABS.items()):
        L += ["    Event code %d (%s)" % (c, NAMES[c]), "      Value %6d" % 0, "      Min %8d" % mn, "      Max %8d" % mx]
        if res: L.append("      Resolution %d" % res)
    L += ["  Event type 4 (EV_MSC)", "    Event code 0 (MSC_SERIAL)", "Properties:", "  Property type 1 (INPUT_PROP_DIRECT)", "Testing ... (interrupt to exit)"]
    for e in rec.ev:
        m = re.match(r"E: (\S+) (\w+) (\w+) (-?\d+)", e); t = m.group(1); ty = int(m.group(2), 16); c = int(m.group(3), 16); v = int(m.group(4))
        if ty == 0 and c == 0: L.append("Event: time %s, -------------- SYN_REPORT ------------" % t)
        elif ty == 0 and c == 3: L.append("Event: time %s, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<" % t)
        elif ty == 1: L.append("Event: time %s, type 1 (EV_KEY), code %d (%s), value %d" % (t, c, KN[c], v))
        elif ty == 3: L.append("Event: time %s, type 3 (EV_ABS), code %d (%s), value %d" % (t, c, NAMES[c], v))
        else: L.append("Event: time %s, type 4 (EV_MSC), code 0 (MSC_SERIAL), value %d" % (t, v))
    return "\n".join(L) + "\n"
problems = []
for fmt, text in (("evemu", r.text()), ("evtest", evtest(r))):
    d = tempfile.mkdtemp(prefix="strokes-adv-"); p = os.path.join(d, "r.txt"); open(p, "w").write(text)
    res = subprocess.run([BIN, "replay", "--hover", p], capture_output=True, text=True, timeout=50)
    out = [json.loads(l) for l in res.stdout.splitlines()]
    seq = [(o["type"], o.get("phase"), o.get("stroke")) for o in out if o["type"] != "replayEnded"]
    if seq != want: problems.append("%s: %s" % (fmt, seq))
    c = [o for o in out if o["type"] == "cancelled"]
    if not c or c[0].get("reason") != "eventsDropped": problems.append("%s: no eventsDropped cancel" % fmt)
verdict(not problems, "; ".join(problems) or "SYN_DROPPED cancels the pen stroke, tool unknown until its next BTN_TOOL (evemu and evtest)")
