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
import stat, threading
DIR = scratch_dir('advy-')
procs = PROCS

HELLO = {"type": "hello", "protocol": 1, "daemon": "strokes 0.2.0", "instance": "00112233aabbccdd", "seq": 1,
         "features": ["subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history",
                      "ping", "stats", "hover", "gestures"], "maxLineLength": 65536}
DEV = {"device": 1, "name": "Fake Touch", "path": "/dev/input/event9", "kind": "touchscreen", "slots": 10,
       "bustype": 3, "vendor": 1, "product": 2, "x": {"min": 0, "max": 1000, "resolution": 10},
       "y": {"min": 0, "max": 1000, "resolution": 10}, "axes": [], "semiMT": False}
GESTURES = [dict(type="gesture", gesture=i, kind="tap", phase="end", device=1, time=1000 * i, fingers=1,
                 strokes=[i], x=1, y=2, nx=0.1, ny=0.2, duration=5) for i in range(1, 41)]
_UNUSED = [
    {"type": "gesture", "gesture": 1, "kind": "tap", "phase": "end", "device": 1, "time": 1000, "fingers": 1,
     "strokes": [1], "x": 1e300, "y": 2, "nx": 0.1, "ny": 123456789012345678901234567890.0, "duration": 5},
    {"type": "gesture", "gesture": 2, "kind": "tap", "phase": "end", "device": 1, "time": 2000, "fingers": 1,
     "strokes": [2], "x": 1e16, "y": 2, "nx": 0.1, "ny": 0.2, "duration": 5},
]
lock = threading.Lock()

def handle(c, stop):
    def send(o):
        with lock: c.sendall(json.dumps(o).encode() + b"\n")
    buf = b""
    try:
        send(HELLO)
        while not stop.is_set():
            d = c.recv(65536)
            if not d: return
            buf += d
            while b"\n" in buf:
                l, buf = buf.split(b"\n", 1); r = json.loads(l); q = r["request"]
                if q == "devices": send({"type": "reply", "id": r.get("id"), "request": "devices", "devices": [DEV]})
                elif q == "subscribe":
                    send({"type": "reply", "id": r.get("id"), "request": "subscribe", "seq": 1})
                    send({"type": "snapshot", "seq": 1, "strokes": []})
                    def stream():
                        try:
                            time.sleep(0.5)
                            for g in GESTURES: send(g)
                            time.sleep(0.5)
                            send({"type": "goodbye", "reason": "shutdown"}); c.shutdown(socket.SHUT_RDWR)
                        except OSError: pass
                    threading.Thread(target=stream, daemon=True).start()
                else: send({"type": "reply", "id": r.get("id"), "request": q})
    except OSError: pass
    finally: c.close()

def serve(srv, stop):
    while not stop.is_set():
        try: c, _ = srv.accept()
        except OSError: return
        threading.Thread(target=handle, args=(c, stop), daemon=True).start()

def main():
    if not os.access(BIN, os.X_OK):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    os.makedirs(DIR, exist_ok=True)
    path = DIR + "/fake.sock"
    srv = socket.socket(socket.AF_UNIX); srv.bind(path); srv.listen(4)
    stop = threading.Event()
    threading.Thread(target=serve, args=(srv, stop), daemon=True).start()
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
        stop.set(); srv.close()
    if problems:
        print("BROKEN: " + "; ".join(problems)); return 1
    print("HELD: 16 of 40 commands ran (maxRunning), --once waited %.1f s for them, 10 of 40 acted on (maxPerSecond), "
          "inherited STROKES_GESTURE_* removed" % took); return 0

if __name__ == "__main__":
    sys.exit(main())
