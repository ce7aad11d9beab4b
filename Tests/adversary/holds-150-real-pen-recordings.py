#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# Recordings 16-19 (Wacom/Dell pens) end to end through `strokes replay --hover`:
# every began has exactly one ended/cancelled (protocol.md "Guarantee"), no stroke is still
# active, every stroke event carries a point away from the prox-out zeroes (decoder.md "Leaving
# proximity": 16 ends with x = y = 0 and those values must not be published), `pressure` always
# comes with `normalizedPressure` in 0..1, tilt degrees only where the axis has a resolution
# (not on 18's DTH2242), proximityIn/proximityOut alternate and every began is inside proximity.
import glob, collections
REC = FIX
expected = {"16": (2, True), "17": (2, True), "18": (7, False), "19": (1, True)}
problems = []
for n, (nstrokes, degrees) in expected.items():
    files = glob.glob(os.path.join(REC, n + "-*"))
    if not files: problems.append("recording %s missing" % n); continue
    r = subprocess.run([BIN, "replay", "--hover", files[0]], capture_output=True, text=True, timeout=50)
    ev = [json.loads(l) for l in r.stdout.splitlines()]
    if r.returncode != 0: problems.append("%s: exit %d" % (n, r.returncode))
    st = collections.defaultdict(list); near = False
    for e in ev:
        t = e["type"]
        if t == "hover":
            if e["phase"] == "proximityIn":
                if near: problems.append("%s: proximityIn while near (frame %d)" % (n, e["frame"]))
                near = True
            elif e["phase"] == "proximityOut":
                if not near: problems.append("%s: proximityOut while not near" % n)
                near = False
            elif not near: problems.append("%s: motion while not near" % n)
        if t in ("began", "moved", "ended", "cancelled"):
            st[e["stroke"]].append(t)
            if t == "began" and not near: problems.append("%s: began outside proximity" % n)
            if e["x"] == 0 or e["y"] == 0: problems.append("%s: zeroed point in %s" % (n, t))
            if "pressure" in e and not (0 <= e.get("normalizedPressure", -1) <= 1):
                problems.append("%s: normalizedPressure %s" % (n, e.get("normalizedPressure")))
            if ("tiltX" in e) and (("tiltXDegrees" in e) != degrees):
                problems.append("%s: tiltXDegrees presence wrong" % n)
    for s, ts in st.items():
        if ts[0] != "began" or ts.count("began") != 1 or sum(x in ("ended", "cancelled") for x in ts) != 1 or ts[-1] not in ("ended", "cancelled"):
            problems.append("%s: stroke %d lifecycle %s" % (n, s, ts[:3]))
    if len(st) != nstrokes: problems.append("%s: %d strokes, expected %d" % (n, len(st), nstrokes))
    if ev and ev[-1].get("stillActive"): problems.append("%s: still active %s" % (n, ev[-1]["stillActive"]))
    if near: problems.append("%s: ends near" % n)
verdict(not problems, "; ".join(problems[:6]) or "16-19: lifecycles complete, no zeroed points, axes as documented")
