#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HDR = """N: Test Touchscreen
I: 0003 1234 5678 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 29999 0 0 100
A: 01 0 19999 0 0 100
A: 2f 0 9 0 0 0
A: 35 0 29999 0 0 100
A: 36 0 19999 0 0 100
A: 39 0 65535 0 0 0
"""
# A touchscreen 300 x 200 mm, 100 units per mm.
class Rec:
    def __init__(self): self.ev = []; self.tid = 100; self.down = set()
    def _e(self, ms, typ, code, val):
        us = int(round(ms * 1000)); self.ev.append(f"E: {us//1000000}.{us%1000000:06d} {typ:04x} {code:04x} {val}")
    def frame(self, ms, ops):
        before = len(self.down)
        for op in ops:
            self._e(ms, 3, 0x2f, op[1])
            if op[0] == 'd': self.tid += 1; self._e(ms, 3, 0x39, self.tid); self.down.add(op[1])
            if op[0] in 'dm': self._e(ms, 3, 0x35, int(op[2])); self._e(ms, 3, 0x36, int(op[3]))
            if op[0] == 'u': self._e(ms, 3, 0x39, -1); self.down.discard(op[1])
        if (before == 0) != (len(self.down) == 0): self._e(ms, 1, 0x14a, 1 if self.down else 0)
        self._e(ms, 0, 0, 0)
    def text(self): return HDR + "\n".join(self.ev) + "\n"
def replay_gestures(rec):
    d = tempfile.mkdtemp(prefix="strokes-repro-")
    try:
        p = os.path.join(d, "r.evemu"); open(p, "w").write(rec.text())
        r = subprocess.run([BIN, "replay", "--gestures", p], capture_output=True, text=True, timeout=30)
        return [json.loads(l) for l in r.stdout.splitlines() if l.strip() and json.loads(l).get("type") == "gesture"]
    finally:
        shutil.rmtree(d, ignore_errors=True)
import time, signal
# docs/gestures.md:231 lists `STROKES_GESTURE_FINGERS`, `_STROKES` right after _ID and before
# _DEVICE; :266 "`env` holds the variables added, in the order of the table above."
# The binary puts STROKES_GESTURE_STROKES after _DURATION.
ORDER = ["RULE", "KIND", "PHASE", "ID", "FINGERS", "STROKES", "DEVICE", "DEVICE_NAME", "TIME", "DURATION",
         "X", "Y", "NX", "NY", "MM_X", "MM_Y", "DNX", "DNY", "DMM_X", "DMM_Y",
         "DIRECTION", "VELOCITY", "EDGE", "SCALE", "ANGLE"]
rec = Rec()
rec.frame(0, [])
rec.frame(1000, [('d', 0, 10000, 10000)]); rec.frame(1050, [('u', 0)])
d = tempfile.mkdtemp(prefix="strokes-repro-", dir="/tmp")
procs = []
try:
    rp = os.path.join(d, "r.evemu"); open(rp, "w").write(rec.text())
    cp = os.path.join(d, "g.yaml"); open(cp, "w").write("rules:\n  - kind: tap\n    run: [true]\n")
    sock = os.path.join(d, "s.sock")
    dp = subprocess.Popen([BIN, "daemon", "--replay", rp, "--socket", sock, "--no-loop"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); procs.append(dp)
    t0 = time.time()
    while not os.path.exists(sock):
        if time.time() - t0 > 5: print("FAIL: daemon socket did not appear"); sys.exit(2)
        time.sleep(0.01)
    gp = subprocess.Popen([BIN, "gestures", "--config", cp, "--socket", sock, "--once", "--dry-run"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True); procs.append(gp)
    time.sleep(2.0)
    dp.send_signal(signal.SIGTERM)
    out, err = gp.communicate(timeout=15)
    lines = [json.loads(l) for l in out.splitlines() if l.strip()]
    if not lines: print(f"FAIL: no dry-run line (stderr: {err.strip()})"); sys.exit(2)
    keys = [k[len("STROKES_GESTURE_"):] for k in lines[0]["env"]]
    expected = [k for k in ORDER if k in keys]
    if keys != expected:
        print(f"BUG: dry-run env order {keys}\n     documented order {expected}"); sys.exit(1)
    print(f"OK: env in documented order {keys}")
finally:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try: p.wait(3)
            except subprocess.TimeoutExpired: p.kill(); p.wait()
    shutil.rmtree(d, ignore_errors=True)
