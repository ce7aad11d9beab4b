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
from common import BIN  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)

def touch_header(name):
    kb = bytearray(0x300 // 8); kb[0x14a // 8] |= 1 << (0x14a % 8)
    ab = bytearray(8)
    for c in (0, 1, 0x2f, 0x35, 0x36, 0x39): ab[c // 8] |= 1 << (c % 8)
    l = [f"N: {name}", "I: 0003 1234 5678 0001", "P: 02 00 00 00 00 00 00 00", "B: 00 0b 00 00 00 00 00 00 00"]
    l += ["B: 01 " + " ".join(f"{b:02x}" for b in kb[i:i + 8]) for i in range(0, len(kb), 8)]
    l += ["B: 03 " + " ".join(f"{b:02x}" for b in ab), "B: 04 00 00 00 00 00 00 00 00", "B: 05 00 00 00 00 00 00 00 00",
          "A: 00 0 4000 0 0 10", "A: 01 0 3000 0 0 10", "A: 2f 0 3 0 0 0", "A: 35 0 4000 0 0 10",
          "A: 36 0 3000 0 0 10", "A: 39 0 65535 0 0 0"]
    return "\n".join(l) + "\n"

def pen_header():
    kb = bytearray(0x300 // 8)
    for k in (0x140, 0x14a): kb[k // 8] |= 1 << (k % 8)
    ab = bytearray(8)
    for c in (0, 1, 0x18): ab[c // 8] |= 1 << (c % 8)
    l = ["N: Test Pen", "I: 0003 1234 5679 0001", "P: 02 00 00 00 00 00 00 00", "B: 00 0b 00 00 00 00 00 00 00"]
    l += ["B: 01 " + " ".join(f"{b:02x}" for b in kb[i:i + 8]) for i in range(0, len(kb), 8)]
    l += ["B: 03 " + " ".join(f"{b:02x}" for b in ab), "B: 04 00 00 00 00 00 00 00 00", "B: 05 00 00 00 00 00 00 00 00",
          "A: 00 0 40000 0 0 100", "A: 01 0 30000 0 0 100", "A: 18 0 2047 0 0 0"]
    return "\n".join(l) + "\n"

def E(t, typ, code, val):
    return f"E: {t // 1000000}.{t % 1000000:06d} {typ:04x} {code:04x} {val}\n"

TOUCH = (E(1000000, 3, 0x2f, 0) + E(1000000, 3, 0x39, 1) + E(1000000, 3, 0x35, 100) + E(1000000, 3, 0x36, 100) + E(1000000, 0, 0, 0)
         + E(1200000, 3, 0x35, 110) + E(1200000, 0, 0, 0)
         + E(1300000, 3, 0x39, -1) + E(1300000, 0, 0, 0))
PEN = (E(1050000, 3, 0, 20000) + E(1050000, 3, 1, 10000) + E(1050000, 1, 0x140, 1) + E(1050000, 0, 0, 0)
       + E(1250000, 1, 0x140, 0) + E(1250000, 0, 0, 0))

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
