#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# protocol.md: `strokes replay` prints the stroke events the daemon sends. For the pen recordings
# 16-19 served by `strokes daemon --replay` (speed 8), a client subscribed to strokes and hover
# gets exactly `strokes replay --hover`'s lines (without `seq`). The recordings get a lead-in frame
# so the client subscribes before the first event.
import glob, re, socket, time
REC = FIX
SPEED = 8.0; LEAD = 2.0 * SPEED
def shifted(src, dst):
    out = []; first = True; shift = 0
    for l in open(src):
        m = re.match(r"E: (\d+)\.(\d+) (.*)", l)
        if m:
            t = int(m.group(1)) * 1000000 + int(m.group(2).ljust(6, "0")[:6])
            if first:
                shift = int(LEAD * 1e6) if t < LEAD * 1e6 else 0
            t += shift
            if first:
                t0 = t - int(LEAD * 1e6); out.append("E: %d.%06d 0000 0000 0000\n" % (t0 // 1000000, t0 % 1000000)); first = False
            out.append("E: %d.%06d %s\n" % (t // 1000000, t % 1000000, m.group(3)))
        else: out.append(l)
    open(dst, "w").writelines(out)
durations = {"16": 0.5, "17": 5.0, "18": 10.2, "19": 8.0}
problems = []
for n, dur in durations.items():
    files = glob.glob(os.path.join(REC, n + "-*"))
    if not files: problems.append("%s missing" % n); continue
    td = tempfile.mkdtemp(prefix="strokes-adv-"); p = os.path.join(td, "r.evemu"); shifted(files[0], p)
    rep = [json.loads(l) for l in subprocess.run([BIN, "replay", "--hover", p], capture_output=True, text=True, timeout=50).stdout.splitlines()]
    rep = [e for e in rep if e["type"] != "replayEnded"]
    sock = os.path.join(td, "s.sock"); cfg = os.path.join(td, "c.yaml"); open(cfg, "w").write("socket:\n  path: %s\n" % sock)
    d = subprocess.Popen([BIN, "daemon", "--config", cfg, "--socket", sock, "--replay", p, "--no-loop", "--speed", str(SPEED)],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(250):
            if os.path.exists(sock): break
            time.sleep(0.02)
        s = socket.socket(socket.AF_UNIX); s.connect(sock)
        s.sendall(b'{"id":1,"request":"subscribe","events":["began","moved","ended","cancelled","hover"]}\n')
        deadline = time.time() + LEAD / SPEED + dur / SPEED + 1.5; buf = b""; s.settimeout(0.2)
        while time.time() < deadline:
            try:
                x = s.recv(1 << 20)
                if not x: break
                buf += x
            except socket.timeout: pass
        s.close()
    finally:
        d.terminate(); d.wait(10)
    msgs = [json.loads(l) for l in buf.split(b"\n") if l.strip()]
    got = [{k: v for k, v in m.items() if k != "seq"} for m in msgs if m["type"] in ("began", "moved", "ended", "cancelled", "hover")]
    if got != rep: problems.append("%s: daemon %d events, replay %d, equal=%s" % (n, len(got), len(rep), got == rep))
verdict(not problems, "; ".join(problems) or "daemon stream (strokes + hover) equals strokes replay for 16-19")
