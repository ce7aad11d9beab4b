#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# docs/decoder.md "Bad values": "Events for codes the device did not declare ... are counted in
# DecoderDiagnostics (`strokes replay --summary` prints them) and otherwise handled: undeclared
# codes are ignored". The kernel never delivers an undeclared code (input core drops it), so
# such events come only from an edited or mismatched recording, the case these rules are for.
# On a pen device that declares only BTN_TOOL_PEN, an undeclared BTN_TOOL_RUBBER is acted on:
# the pen leaves proximity and an `eraser` comes in and draws a stroke, though the device's
# `tools` (and `strokes describe`) say it has only a pen. Undeclared BTN_TOUCH / BTN_STYLUS are
# ignored, but no undeclared EV_KEY event is counted (`undeclaredCodes` counts only EV_ABS ones;
# the same holds on a touchscreen).
problems = []
r = Rec(keys=[BTN_TOOL_PEN, BTN_TOUCH])
r.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_X,1100),K(BTN_STYLUS,1))                          # undeclared key
r.frame(A(ABS_X,1200),K(BTN_STYLUS,0))                          # undeclared key
r.frame(A(ABS_X,1300),K(BTN_TOOL_RUBBER,1),K(BTN_TOOL_PEN,0))   # undeclared tool bit
r.frame(A(ABS_X,1400),A(ABS_PRESSURE,20),K(BTN_TOUCH,1))
r.frame(A(ABS_X,1500),A(ABS_PRESSURE,0),K(BTN_TOUCH,0))
r.frame(K(BTN_TOOL_RUBBER,0))
rc, out, err = replay([r.text()], "--hover")
erasers = [o for o in out if o.get("toolType") == "eraser"]
if erasers:
    problems.append("undeclared BTN_TOOL_RUBBER published %d eraser events (%s)" % (len(erasers), sorted({(o["type"], o.get("phase")) for o in erasers})))
d = tempfile.mkdtemp(prefix="strokes-adv-"); p = os.path.join(d, "r.evemu"); open(p, "w").write(r.text())
summ = subprocess.run([BIN, "replay", "--summary", p], capture_output=True, text=True, timeout=50).stdout
import re
m = re.search(r"^device 1 undeclaredCodes: (\d+)", summ, re.M)
n = int(m.group(1)) if m else 0
if n < 4: problems.append("undeclaredCodes %d for 4 undeclared key events" % n)
verdict(not problems, "; ".join(problems) or "undeclared key codes ignored and counted")
