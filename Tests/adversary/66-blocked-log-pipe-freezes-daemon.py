#!/usr/bin/env python3
"""The daemon logs to stderr (README: "Logs go to stderr, that is the journal") and writes its log
lines synchronously on the event-loop thread. When stderr is a pipe or stream whose reader is
slow or stopped (a paused `| less`, a stalled journald, a log shipper that is restarting), the
pipe fills and the event loop blocks in write(2): every client stops receiving and new
connections are not answered, until someone drains the log. Any client can fill the pipe: each
connect/close logs two lines, ~320 cycles (1 s) fill a 64 KiB pipe.
Promises: docs/protocol.md "Slow clients": "The daemon never waits for a client"; README: "a
slow-client policy that never blocks the reader".
Exit 0 = correct (a subscriber keeps receiving), 1 = bug present."""
import os, sys, time, socket, subprocess, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")

def main():
    d = tempfile.mkdtemp(prefix="strokes-logpipe-")
    sock = os.path.join(d, "s.sock")
    r, w = os.pipe()
    p = subprocess.Popen([BIN, "daemon", "--replay", REC, "--loop", "--speed", "2", "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=w)
    os.close(w)
    try:
        for _ in range(50):
            if os.path.exists(sock): break
            time.sleep(0.1)
        good = socket.socket(socket.AF_UNIX); good.connect(sock)
        good.sendall(b'{"id":1,"request":"subscribe"}\n'); good.settimeout(0.2)
        def received(t):
            n = 0; t0 = time.time()
            while time.time() - t0 < t:
                try: n += len(good.recv(65536))
                except socket.timeout: pass
            return n
        before = received(2)
        if before == 0:
            print("setup: no stream before the test"); return 2
        cycles = 0; fails = 0
        for _ in range(1500):                      # connect, read the hello, close
            c = socket.socket(socket.AF_UNIX); c.settimeout(0.3)
            try:
                c.connect(sock); c.recv(16); cycles += 1
            except OSError:
                fails += 1
                if fails >= 3: break
            finally:
                c.close()
        after = received(3)
        tasks = {}
        for t in os.listdir(f"/proc/{p.pid}/task"):
            try: tasks[t] = open(f"/proc/{p.pid}/task/{t}/wchan").read()
            except OSError: pass
        if after == 0 or fails >= 3:
            print(f"BUG: with the daemon's stderr pipe not being read, {cycles} connect/close cycles froze it: "
                  f"subscriber got {before} bytes in 2 s before, {after} bytes in 3 s after; new connections "
                  f"{'unanswered' if fails >= 3 else 'answered'}; threads' wchan: {sorted(set(tasks.values()))}")
            return 1
        print(f"OK: subscriber still received {after} bytes"); return 0
    finally:
        os.set_blocking(r, False)
        try:
            while os.read(r, 1 << 20): pass
        except BlockingIOError:
            pass
        p.terminate()
        try: p.wait(5)
        except subprocess.TimeoutExpired: p.kill(); p.wait()
        os.close(r)
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
