#!/usr/bin/env python3
"""`strokes render --socket` pages through `history` while replies carry a `cursor`. A server that
answers every page with the SAME cursor again (or a new one forever) keeps render paging forever,
accumulating strokes in memory: no bound on pages, no detection of a repeated cursor.
A real daemon's history holds at most `history` strokes (protocol.md), so render could stop.
Usage: python3 03-render-socket-endless-history-cursor.py /path/to/strokes"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
import stat, threading
DIR = scratch_dir('advy-')
procs = PROCS

HELLO = {"type": "hello", "protocol": 1, "daemon": "strokes 0.2.0", "instance": "00112233aabbccdd", "seq": 1,
         "features": ["subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history",
                      "ping", "stats", "hover", "gestures"], "maxLineLength": 65536}
DEV = {"device": 1, "name": "Fake", "path": "/dev/input/event9", "kind": "touchscreen", "slots": 10, "bustype": 3,
       "vendor": 1, "product": 2, "x": {"min": 0, "max": 1000, "resolution": 10},
       "y": {"min": 0, "max": 1000, "resolution": 10}, "axes": [], "semiMT": False}
pages = [0]
def stroke(i):
    return {"stroke": i, "device": 1, "slot": 0, "trackingId": 1, "state": "ended",
            "points": [{"time": i * 100 + j, "x": j, "y": j, "nx": j / 1000, "ny": j / 1000} for j in range(50)]}

def handle(c, stop):
    buf = b""
    send = lambda o: c.sendall(json.dumps(o).encode() + b"\n")
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
                elif q == "history":
                    pages[0] += 1
                    send({"type": "reply", "id": r.get("id"), "request": "history",
                          "strokes": [stroke(pages[0] * 100 + k) for k in range(100)], "cursor": "0-1"})
                elif q == "live": send({"type": "reply", "id": r.get("id"), "request": "live", "seq": 1, "strokes": []})
                else: send({"type": "reply", "id": r.get("id"), "request": q})
    except OSError: pass
    finally: c.close()

def serve(srv, stop):
    while not stop.is_set():
        try: c, _ = srv.accept()
        except OSError: return
        threading.Thread(target=handle, args=(c, stop), daemon=True).start()

def rss_mb(pid):
    try:
        for l in open("/proc/%d/status" % pid):
            if l.startswith("VmRSS:"): return int(l.split()[1]) // 1024
    except OSError: return 0
    return 0

def main():
    if not os.access(BIN, os.X_OK):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    os.makedirs(DIR, exist_ok=True)
    path = DIR + "/fake.sock"
    srv = socket.socket(socket.AF_UNIX); srv.bind(path); srv.listen(4)
    stop = threading.Event()
    threading.Thread(target=serve, args=(srv, stop), daemon=True).start()
    try:
        p = subprocess.Popen([BIN, "render", "--socket", path, "-o", DIR + "/out.svg"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(p)
        first = None
        t0 = time.time()
        while time.time() - t0 < 20 and p.poll() is None:
            time.sleep(1)
            if first is None: first = rss_mb(p.pid)
        running = p.poll() is None
        last = rss_mb(p.pid) if running else 0
        p.kill(); p.wait(timeout=5)
        if running and pages[0] > 50:
            print("BROKEN: render --socket still paging after 20 s: %d history requests answered with the same "
                  "cursor \"0-1\", RSS %d MB -> %d MB and growing" % (pages[0], first or 0, last))
            return 1
        print("HELD: render --socket stopped (rc=%s) after %d history pages: %s" %
              (p.returncode, pages[0], p.stderr.read().decode(errors="replace")[:200]))
        return 0
    finally:
        stop.set(); srv.close()

if __name__ == "__main__":
    sys.exit(main())
