#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# protocol.md: `serial` is MSC_SERIAL "unsigned 32-bit" (evemu/evtest write it signed); a value
# never reported is absent ("No invented values": no MSC_SERIAL, no ABS_DISTANCE -> no key);
# decoder.md "Bad values": out-of-range values are kept as reported and counted; a zero-width
# axis does not divide by zero (no NaN/inf in JSON, output stays valid JSON).
problems = []
r = Rec()
r.frame(A(ABS_X,1000),A(ABS_Y,2000),K(BTN_TOOL_PEN,1))                         # no serial, no distance yet
r.frame(A(ABS_X,1100),A(ABS_PRESSURE,3000),K(BTN_TOUCH,1),S(-1))                # pressure above max
r.frame(A(ABS_X,1200),A(ABS_PRESSURE,0),K(BTN_TOUCH,0),S(-2147483648))
rc, out, err = replay([r.text()], "--hover")
pi = [o for o in out if o.get("phase") == "proximityIn"]
if not pi or "serial" in pi[0] or "distance" in pi[0] or "pressure" in pi[0]: problems.append("invented values on proximityIn: %s" % pi)
b = [o for o in out if o["type"] == "began"]
if not b or b[0].get("serial") != 4294967295 or b[0].get("pressure") != 3000 or not b[0].get("normalizedPressure", 0) > 1:
    problems.append("began: %s" % (b[0] if b else None))
e = [o for o in out if o["type"] == "ended"]
if not e or e[0].get("serial") != 2147483648: problems.append("ended serial %s" % (e[0].get("serial") if e else None))
d = tempfile.mkdtemp(prefix="strokes-adv-"); p = os.path.join(d, "r.evemu"); open(p, "w").write(r.text())
summ = subprocess.run([BIN, "replay", "--summary", p], capture_output=True, text=True, timeout=50).stdout
if "valuesOutOfRange" not in summ: problems.append("out-of-range pressure not counted")
# zero-width pressure and tilt axes
ab = dict(PEN_ABS); ab[ABS_PRESSURE] = (5, 5, 0, 0, 0); ab[ABS_TILT_X] = (0, 0, 0, 0, 57)
r = Rec(absd=ab)
r.frame(A(ABS_X,1000),A(ABS_Y,2000),A(ABS_TILT_X,3),K(BTN_TOOL_PEN,1))
r.frame(A(ABS_PRESSURE,7),K(BTN_TOUCH,1))
r.frame(A(ABS_PRESSURE,0),K(BTN_TOUCH,0))
res = subprocess.run([BIN, "replay", "--hover", "-"], input=r.text(), capture_output=True, text=True, timeout=50)
try:
    lines = [json.loads(l, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c))) for l in res.stdout.splitlines()]
    if not any(o["type"] == "began" for o in lines): problems.append("zero-width: no stroke")
except ValueError as ex:
    problems.append("zero-width axis gave invalid JSON: %s" % ex)
verdict(not problems, "; ".join(problems) or "serial unsigned, unreported axes absent, out-of-range kept and counted, zero-width axes valid")
