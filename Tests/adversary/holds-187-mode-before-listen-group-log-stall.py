#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-187: the socket's mode is set before it listens (under umask 0 the bound file is 0777 for
# a moment: strace holds the daemon there, and another user's connect is refused, not served); an
# explicit socket.group that does not exist stops the daemon (78); a stalled standard error (a log
# pipe nobody reads) while another user floods refused connections and refused HTTP requests does not
# stop the event loop, and the dropped lines are counted.
import re
try:
    bad = []
    g = mkgroup("advtestg187"); u = mkuser("advtest187", "advtestg187")
    if shutil.which("strace"):
        sock = os.path.join(TMP, "m.sock"); logp = os.path.join(TMP, "m.log")
        old = os.umask(0)
        p = subprocess.Popen(["strace", "-f", "-o", "/dev/null", "-e", "trace=chmod,fchmodat,fchmod", "-e", "inject=chmod,fchmodat,fchmod:delay_enter=2000000",
                              BIN, "daemon", "--replay", F01, "--socket", sock, "--config", "/dev/null"], stdout=open(logp, "wb"), stderr=subprocess.STDOUT)
        os.umask(old); PROCS.append(p)
        deadline = time.time() + 10
        while time.time() < deadline and not os.path.exists(sock): time.sleep(0.005)
        def try_connect():
            try:
                s = socket.socket(socket.AF_UNIX); s.connect(sock); s.settimeout(3)
                try: d = s.recv(200)
                except socket.timeout: d = b""
                return {"connected": True, "data": d.decode(errors="replace")}
            except OSError as e: return {"errno": e.errno}
        r = as_user(u, g, [g], try_connect)
        if r.get("connected") and "hello" in r.get("data", ""):
            bad.append("another user was served before the mode was set: %r" % r)
        for k in descendants(p.pid):
            try: os.kill(k, signal.SIGKILL)
            except OSError: pass
        p.kill(); p.wait()
    sock = os.path.join(TMP, "g.sock")
    q = start_daemon(sock, "socket:\n  group: advtestnosuchgroup187\n", wait=False)
    try: q.wait(15)
    except subprocess.TimeoutExpired: pass
    if q.returncode != 78: bad.append("nonexistent explicit group: rc %r" % q.poll())
    if q.poll() is None: q.kill(); q.wait()
    # stalled stderr
    sock = os.path.join(TMP, "s.sock"); cfg = os.path.join(TMP, "c.yaml")
    open(cfg, "w").write('socket:\n  mode: "0666"\n  allowUids: [0]\n')
    r, w = os.pipe()
    d = subprocess.Popen([BIN, "daemon", "--replay", F01, "--socket", sock, "--config", cfg, "--http", "127.0.0.1:0"], stdout=w, stderr=w)
    PROCS.append(d); os.close(w)
    buf = b""; deadline = time.time() + 10
    while b"ready" not in buf and time.time() < deadline: buf += os.read(r, 4096)
    port = int(re.search(rb"http=127\.0\.0\.1:(\d+) ", buf).group(1))
    def flood():
        for i in range(5000):
            try: s = socket.socket(socket.AF_UNIX); s.connect(sock); s.close()
            except OSError: pass
        for i in range(1500):
            try: http_tcp(port, "GET /devices HTTP/1.1\r\nHost: evil\r\nConnection: close\r\n\r\n")
            except OSError: pass
        return 1
    as_user(u, g, [g], flood)
    t1 = time.time(); res = first_messages(sock, 2, {"id": 1, "request": "ping"}); dt = time.time() - t1
    if [m.get("type") for m in res] != ["hello", "reply"] or dt > 2: bad.append("root ping with stderr stalled: %r in %.2fs" % (res, dt))
    os.set_blocking(r, False); total = b""; idle = 0
    while idle < 3:
        try:
            b = os.read(r, 1 << 20)
            if not b: break
            total += b; idle = 0
        except BlockingIOError: idle += 1; time.sleep(0.3)
    if b"dropped" not in total: bad.append("no 'log line(s) dropped' after the stall (%d bytes of log)" % len(total))
    if bad: finish(True, "; ".join(bad))
    finish(False, "mode set before listen, missing explicit group refused (78), stalled log does not block the loop and drops are counted")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
