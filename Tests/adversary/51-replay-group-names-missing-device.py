#!/usr/bin/env python3
"""strokes replay --group 1,3 with only two recordings: device 3 does not exist.

`strokes replay --help`: "--group <N,N>  Devices of one hardware, as device numbers in file
order (e.g. 1,2)"; docs/decoder.md l. 293-294: "`strokes replay --group 1,2 A B` replays the
files together (devices numbered in file order) with devices 1 and 2 as one group."
A malformed group ('--group 1') is refused with exit 64, but a group naming a device number no
file has is accepted silently: the intended arbitration (touch = 1, pen = 2) never happens and
nothing says why. Expected: refused (non-zero exit naming the number), or at least a warning on
stderr. Actual: exit 0, no message, strokes not arbitrated.
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
        a, p = os.path.join(d, "a.evemu"), os.path.join(d, "p.evemu")
        open(a, "w").write(touch_header("Test Touch A") + TOUCH)
        open(p, "w").write(pen_header() + PEN)
        r = subprocess.run([BIN, "replay", "--group", "1,3", a, p], capture_output=True, text=True, timeout=25)
        if r.returncode != 0 or r.stderr.strip():
            print(f"ok: --group naming a missing device is reported (exit {r.returncode}): {r.stderr.strip()[:200]}")
            return 0
        print("BUG: --group 1,3 with 2 recordings was accepted silently (exit 0, empty stderr); "
              "device 3 does not exist and no arbitration happened")
        return 1
    finally:
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
