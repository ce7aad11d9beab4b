#!/usr/bin/env python3
"""strokes replay --group 1,3 --group 2,3: one pen (device 3) grouped with two touch devices.

docs/decoder.md "Touch arbitration" (l. 284-294): "While a pen of a group is in proximity,
the group's finger strokes in progress are `cancelled` with reason `pen` ... `strokes replay
--group 1,2 A B` replays the files together ... with devices 1 and 2 as one group."
`strokes replay --help`: "--group <N,N> ... while a pen of the group is in proximity its finger
strokes are cancelled ('pen')". --group is repeatable.

Scenario A: touch A (1), touch B (2), pen (3); `--group 1,3 --group 2,3`.
Scenario B: touch (1), pen (2), a second pen node (3: older Wacom ISDv4 pens have a separate
eraser node); `--group 1,2 --group 1,3`, pen 2 comes near.
Expected: in A the pen coming near cancels the finger strokes of BOTH touch devices (device 1 is
in the group 1,3 the user gave); in B pen 2 cancels device 1's stroke. Actual (bug): only the last --group naming the pen takes effect;
device 1's stroke is not cancelled and ends normally, silently (exit 0). Merging overlapping
groups (as `--group 1,2,3` does) or refusing them would both be consistent with the docs.
"""
import json, os, shutil, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, E, PEN, TOUCH, pen_header, touch_header  # noqa: E402 (common.py)

def main():
    d = tempfile.mkdtemp()
    try:
        a, b, p = (os.path.join(d, n) for n in ("a.evemu", "b.evemu", "p.evemu"))
        open(a, "w").write(touch_header("Test Touch A") + TOUCH)
        open(b, "w").write(touch_header("Test Touch B") + TOUCH)
        open(p, "w").write(pen_header() + PEN)
        r = subprocess.run([BIN, "replay", "--group", "1,3", "--group", "2,3", a, b, p],
                           capture_output=True, text=True, timeout=25)
        if r.returncode != 0:
            print(f"replay refused overlapping groups (exit {r.returncode}): acceptable: {r.stderr.strip()[:200]}")
            return 0
        evs = [json.loads(l) for l in r.stdout.splitlines()]
        fate = {}
        for e in evs:
            if e["type"] in ("ended", "cancelled"):
                fate[e["device"]] = (e["type"], e.get("reason"))
        bad = [dev for dev in (1, 2) if fate.get(dev) != ("cancelled", "pen")]
        rc = 0
        if bad:
            print("BUG (A): with --group 1,3 --group 2,3 the pen (device 3) came into proximity while a finger "
                  f"was down on devices 1 and 2, but device(s) {bad} kept the stroke: {fate}")
            rc = 1
        p2 = os.path.join(d, "p2.evemu")
        open(p2, "w").write(pen_header() + PEN.replace("E: 1.050000", "E: 1.900000").replace("E: 1.250000", "E: 1.950000"))
        r = subprocess.run([BIN, "replay", "--group", "1,2", "--group", "1,3", a, p, p2],
                           capture_output=True, text=True, timeout=25)
        if r.returncode == 0:
            evs = [json.loads(l) for l in r.stdout.splitlines()]
            f1 = [(e["type"], e.get("reason")) for e in evs if e.get("device") == 1 and e["type"] in ("ended", "cancelled")]
            if f1 != [("cancelled", "pen")]:
                print("BUG (B): with --group 1,2 --group 1,3 pen 2 came into proximity while a finger was down "
                      f"on device 1, but device 1's stroke was not cancelled: {f1}")
                rc = 1
        if rc == 0:
            print("ok: every group given with --group arbitrates its touch devices")
        return rc
    finally:
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
