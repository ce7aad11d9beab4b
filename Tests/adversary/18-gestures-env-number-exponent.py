#!/usr/bin/env python3
"""docs/gestures.md, "Commands": "Numbers are plain decimals, at most 6 places, never an exponent."
A gesture whose centroid is large (x = 1e300, ny = 1.2345678901234568e29, as a hostile or buggy daemon may send)
is handed to the command as STROKES_GESTURE_X=1e+300: an exponent.
Checked with `strokes gestures --dry-run --once` ("the same rules, limits and environment as a real run")
against a fake daemon speaking protocol.md.
Usage: python3 04-gestures-env-number-exponent.py /path/to/strokes"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
DIR = scratch_dir('advy-')
procs = PROCS

GESTURES = [
    {"type": "gesture", "gesture": 1, "kind": "tap", "phase": "end", "device": 1, "time": 1000, "fingers": 1,
     "strokes": [1], "x": 1e300, "y": 2, "nx": 0.1, "ny": 123456789012345678901234567890.0, "duration": 5},
    {"type": "gesture", "gesture": 2, "kind": "tap", "phase": "end", "device": 1, "time": 2000, "fingers": 1,
     "strokes": [2], "x": 1e16, "y": 2, "nx": 0.1, "ny": 0.2, "duration": 5},
]
def main():
    if not os.access(BIN, os.X_OK):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    os.makedirs(DIR, exist_ok=True)
    path = DIR + "/fake.sock"; cfg = DIR + "/gestures.yaml"
    open(cfg, "w").write("every: 0ms\nrules:\n  - kind: tap\n    run: [\"true\"]\n")
    FakeDaemon(path, fake_stream(GESTURES, after=1.0))
    try:
        p = subprocess.Popen([BIN, "gestures", "--once", "--dry-run", "--config", cfg, "--socket", path],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        procs.append(p)
        try: out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            print("setup error: gestures --once did not stop"); return 2
        lines = [json.loads(l) for l in out.decode().splitlines() if l.strip()]
        if len(lines) != 2:
            print("setup error: expected 2 dry-run lines, got %r / %r" % (out[:300], err[:300])); return 2
        bad = {}
        for l in lines:
            for k, v in l["env"].items():
                if k in ("STROKES_GESTURE_X", "STROKES_GESTURE_Y", "STROKES_GESTURE_NX", "STROKES_GESTURE_NY") \
                        and not re.fullmatch(r"-?\d+(\.\d{1,6})?", v):
                    bad["%s (gesture %s)" % (k, l["env"]["STROKES_GESTURE_ID"])] = v
        if bad:
            print("BROKEN: numbers in the command's environment use an exponent: %s" % bad); return 1
        print("HELD: every number is a plain decimal: %s" % [l["env"]["STROKES_GESTURE_X"] for l in lines]); return 0
    finally:
        pass

if __name__ == "__main__":
    sys.exit(main())
