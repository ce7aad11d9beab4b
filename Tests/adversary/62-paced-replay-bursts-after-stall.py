#!/usr/bin/env python3
"""`strokes daemon --replay FILE --speed 1` promises the recorded pace ('--speed: 1 is the
recorded pace'; README: a paced replay serves the recording 'as if it were a live device').
When the daemon process is stalled (SIGSTOP/SIGCONT here; the same for any scheduling stall),
on resuming it plays every overdue frame at once: after an 8 s stop, ~8 s of recording arrive in
well under a second, and a subscriber that was keeping up gets merged moves (dropped points).
Exit 0 = correct (the pace is kept after a stall), 1 = bug present."""
import os, sys, time, json, signal, socket, subprocess, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
STOP = 8.0

def main():
    d = tempfile.mkdtemp(prefix="strokes-stall-")
    sock = os.path.join(d, "s.sock")
    p = subprocess.Popen([BIN, "daemon", "--replay", REC, "--loop", "--speed", "1", "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            if os.path.exists(sock): break
            time.sleep(0.1)
        c = socket.socket(socket.AF_UNIX); c.connect(sock)
        c.sendall(b'{"id":1,"request":"subscribe"}\n'); c.settimeout(0.05)
        buf = b""; ev = []
        def pump(t):
            nonlocal buf
            end = time.time() + t
            while time.time() < end:
                try: data = c.recv(1 << 20)
                except socket.timeout: continue
                if not data: return
                now = time.time(); buf += data
                while b"\n" in buf:
                    line, buf = buf.split(b"\n", 1)
                    m = json.loads(line)
                    if "time" in m: ev.append((now, m["time"], "merged" in m))
        pump(3)
        os.kill(p.pid, signal.SIGSTOP); time.sleep(STOP)
        t0 = time.time(); os.kill(p.pid, signal.SIGCONT)
        n = len(ev); pump(1.5)
        first = [e for e in ev[n:] if e[0] - t0 < 0.5]
        if not first:
            print("no events after SIGCONT (recording quiet?)"); return 2
        span = (max(e[1] for e in first) - min(e[1] for e in first)) / 1e6
        merged = sum(1 for e in ev[n:] if e[2])
        if span > 2.0:
            print(f"BUG: after a {STOP:.0f} s stall, the first 0.5 s of wall time delivered {len(first)} events "
                  f"spanning {span:.1f} s of recording (speed 1); {merged} merged moves reached a client that "
                  f"was keeping up")
            return 1
        print(f"OK: {span:.2f} s of recording in the first 0.5 s after resuming"); return 0
    finally:
        try: os.kill(p.pid, signal.SIGCONT)
        except ProcessLookupError: pass
        p.terminate()
        try: p.wait(5)
        except subprocess.TimeoutExpired: p.kill(); p.wait()
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
