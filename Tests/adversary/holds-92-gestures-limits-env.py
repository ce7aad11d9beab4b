#!/usr/bin/env python3
"""HELD check, docs/gestures.md "Limits" and "Commands":
- "maxRunning (default 16): a gesture that would start a command while that many are still running is skipped"
- "--once stops at the daemon's goodbye ... once the commands it started have ended"
- "inherited STROKES_GESTURE_* are removed first, so a value the gesture lacks is absent, not stale"
- default global "maxPerSecond: 10"
40 taps in a burst from a fake daemon. Usage: python3 holds-01-gestures-limits-env.py /path/to/strokes"""

import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
DIR = scratch_dir('advy-')
procs = PROCS

GESTURES = [dict(type="gesture", gesture=i, kind="tap", phase="end", device=1, time=1000 * i, fingers=1,
                 strokes=[i], x=1, y=2, nx=0.1, ny=0.2, duration=5) for i in range(1, 41)]
def main():
    if not os.access(BIN, os.X_OK):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    os.makedirs(DIR, exist_ok=True)
    path = DIR + "/fake.sock"
    FakeDaemon(path, fake_stream(GESTURES, after=0.5))
    problems = []
    try:
        # 1. maxRunning and --once
        cfg = DIR + "/g1.yaml"
        open(cfg, "w").write("every: 0ms\nrules:\n  - kind: tap\n    shell: 'echo start >> %s/runs; sleep 4'\n" % DIR)
        t0 = time.time()
        p = subprocess.Popen([BIN, "gestures", "--once", "--config", cfg, "--socket", path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(p)
        time.sleep(2.5)
        kids = [l for l in os.listdir("/proc") if l.isdigit() and
                open("/proc/%s/stat" % l).read().rsplit(")", 1)[1].split()[1] == str(p.pid)] if p.poll() is None else []
        try: p.wait(timeout=30)
        except subprocess.TimeoutExpired: problems.append("--once never stopped")
        took = time.time() - t0
        runs = len(open(DIR + "/runs").read().split()) if os.path.exists(DIR + "/runs") else 0
        if runs != 16: problems.append("maxRunning: %d commands started of 40 (want 16)" % runs)
        if len(kids) > 16: problems.append("%d children running at once" % len(kids))
        if took < 4: problems.append("--once ended after %.1f s, before its 4 s commands" % took)
        # 2. env scrubbed, default global maxPerSecond 10
        cfg = DIR + "/g2.yaml"
        open(cfg, "w").write("rules:\n  - kind: tap\n    run: [\"true\"]\n")
        env = dict(os.environ, STROKES_GESTURE_EDGE="stale", STROKES_GESTURE_SCALE="9")
        p = subprocess.Popen([BIN, "gestures", "--once", "--dry-run", "--config", cfg, "--socket", path],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        procs.append(p)
        out, _ = p.communicate(timeout=30)
        lines = [json.loads(l) for l in out.decode().splitlines() if l.strip()]
        if len(lines) != 10: problems.append("default maxPerSecond 10: %d of a 40-tap burst acted on" % len(lines))
        for l in lines:
            if "STROKES_GESTURE_EDGE" in l["env"] or "STROKES_GESTURE_SCALE" in l["env"]:
                problems.append("stale inherited variable passed: %s" % l["env"]); break
    finally:
        pass
    if problems:
        print("BROKEN: " + "; ".join(problems)); return 1
    print("HELD: 16 of 40 commands ran (maxRunning), --once waited %.1f s for them, 10 of 40 acted on (maxPerSecond), "
          "inherited STROKES_GESTURE_* removed" % took); return 0

if __name__ == "__main__":
    sys.exit(main())
