#!/usr/bin/env python3
"""A hostile (or broken) server on the socket sends `hello`, then one line that never ends.
`strokes render --socket` buffers it without any bound: its RSS grows by hundreds of MB per second.
(`strokes gestures` stops such a line at 64 MiB: "a line longer than 67108864 bytes".)
Usage: python3 02-render-socket-unbounded-line-memory.py /path/to/strokes"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
import stat, threading
LIMIT_KB = 1024 * 1024          # 1 GiB: far beyond the 64 MiB the gestures client allows
DIR = scratch_dir('advy-')
procs = PROCS

HELLO = {"type": "hello", "protocol": 1, "daemon": "strokes 0.2.0", "instance": "00112233aabbccdd", "seq": 1,
         "features": ["subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history",
                      "ping", "stats", "hover", "gestures"], "maxLineLength": 65536}

def serve(srv, stop):
    while not stop.is_set():
        try: c, _ = srv.accept()
        except OSError: return
        def h(c=c):
            try:
                c.sendall(json.dumps(HELLO).encode() + b"\n")
                chunk = b"a" * (1 << 20)
                while not stop.is_set(): c.sendall(chunk)   # one line, never terminated
            except OSError: pass
            finally: c.close()
        threading.Thread(target=h, daemon=True).start()

def rss_kb(pid):
    try:
        for l in open("/proc/%d/status" % pid):
            if l.startswith("VmRSS:"): return int(l.split()[1])
    except OSError: return None
    return 0

def main():
    if not os.access(BIN, os.X_OK):
        print("usage: %s STROKES" % sys.argv[0]); return 2
    strokes = BIN
    os.makedirs(DIR, exist_ok=True)
    path = DIR + "/fake.sock"
    srv = socket.socket(socket.AF_UNIX); srv.bind(path); srv.listen(4)
    stop = threading.Event()
    threading.Thread(target=serve, args=(srv, stop), daemon=True).start()
    try:
        p = subprocess.Popen([strokes, "render", "--socket", path, "-o", DIR + "/out.svg"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(p)
        peak = 0; t0 = time.time()
        while time.time() - t0 < 30:
            time.sleep(0.5)
            if p.poll() is not None: break
            r = rss_kb(p.pid) or 0
            peak = max(peak, r)
            if peak > LIMIT_KB: break
        alive = p.poll() is None
        p.kill(); p.wait(timeout=5)
        err = p.stderr.read().decode(errors="replace")[:300]
        if peak > LIMIT_KB:
            print("BROKEN: strokes render --socket buffered an unterminated line from the server without bound: "
                  "RSS %d MB after %.1f s (still growing; no line limit, unlike gestures' 64 MiB)" % (peak // 1024, time.time() - t0))
            return 1
        print("HELD: strokes render --socket peak RSS %d MB (alive=%s, stderr=%r): the line is bounded" % (peak // 1024, alive, err))
        return 0
    finally:
        stop.set(); srv.close()

if __name__ == "__main__":
    sys.exit(main())
