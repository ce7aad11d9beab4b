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
from common import BIN, E, PEN, TOUCH, pen_header, touch_header  # noqa: E402 (common.py)

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
