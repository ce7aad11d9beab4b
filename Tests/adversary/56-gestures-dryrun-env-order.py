#!/usr/bin/env python3
import os, sys, json, subprocess, tempfile, shutil
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, GestureScreenRecording as Rec, replay_gestures  # noqa: E402 (common.py)
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
