#!/usr/bin/env python3
"""docs/security.md ("exhaust descriptors anyway": "accept backs off (100 ms), logged once per
episode; connected clients go on being served") and README.md:438-440. The Unix socket listener
does back off; the HTTP listener (`--http 127.0.0.1:PORT`) does not: with RLIMIT_NOFILE=40 and 30
idle TCP connections the daemon calls accept4() in a tight loop (tens of thousands of EMFILE
failures a second), one core at ~100 % for as long as the descriptors stay exhausted, nothing
logged. Exit 0 = correct (< 20 % CPU while exhausted), 1 = bug present."""
import os, sys, time, socket, signal, subprocess, resource, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
LIMIT = 40

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def main():
    d = tempfile.mkdtemp(prefix="strokes-httpfd-")
    sock = os.path.join(d, "s.sock"); port = free_port(); errf = os.path.join(d, "err")
    def pre():
        resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, LIMIT))
    p = subprocess.Popen([BIN, "daemon", "--replay", REC, "--loop", "--socket", sock,
                          "--http", f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL,
                         stderr=open(errf, "w"), preexec_fn=pre)
    conns = []
    try:
        for _ in range(50):
            if os.path.exists(sock): break
            time.sleep(0.1)
        time.sleep(0.5)
        if p.poll() is not None:
            print("setup: daemon exited", p.returncode, open(errf).read()[-300:]); return 2
        good = socket.socket(socket.AF_UNIX); good.connect(sock)
        good.sendall(b'{"id":1,"request":"subscribe"}\n'); good.settimeout(0.2)
        for _ in range(30):
            conns.append(socket.create_connection(("127.0.0.1", port), timeout=2))
        time.sleep(0.5)
        fds = len(os.listdir(f"/proc/{p.pid}/fd"))
        c0 = cpu(p.pid); t0 = time.time(); got = 0
        while time.time() - t0 < 3:
            try: got += len(good.recv(65536))
            except socket.timeout: pass
        frac = (cpu(p.pid) - c0) / (time.time() - t0)
        log = open(errf).read()
        logged = "accept" in log.lower()
        if frac > 0.2:
            print(f"BUG: descriptors exhausted through the HTTP listener ({fds}/{LIMIT} fds): daemon CPU "
                  f"{frac*100:.0f} % over 3 s (accept busy loop), back-off logged: {logged}; "
                  f"subscriber still got {got} bytes")
            return 1
        print(f"OK: {frac*100:.1f} % CPU while exhausted ({fds} fds), logged: {logged}"); return 0
    finally:
        for c in conns: c.close()
        if p.poll() is None:
            p.terminate()
            try: p.wait(5)
            except subprocess.TimeoutExpired: p.kill(); p.wait()
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
