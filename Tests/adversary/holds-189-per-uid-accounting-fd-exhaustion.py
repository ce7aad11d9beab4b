#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-189: per-uid accounting does not leak (a uid that closed, reset, half-closed, overflowed
# its line and its limit 300 times still gets its full maxClientsPerUid), and descriptor exhaustion
# by three uids (hard RLIMIT_NOFILE 48) leaves the connected clients served, the daemon not
# spinning (accept backs off) and both listeners accepting again once descriptors come back.
import struct
try:
    bad = []
    g = mkgroup("advtestg189"); gid = grp.getgrnam("advtestg189").gr_gid
    us = [mkuser("advtest189%d" % i, "advtestg189") for i in range(3)]
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\nmaxClientsPerUid: 4\nmaxLineLength: 256\n', extra=["--speed", "10"])
    def churn():
        for i in range(40):
            s = connect(sock); s.close()
            s = connect(sock); s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); s.close()
            s = connect(sock); s.shutdown(socket.SHUT_WR); read_lines(s, 3, 2); s.close()
            s = connect(sock); s.sendall(b"x" * 1000 + b"\n"); read_lines(s, 3, 2); s.close()
            s = connect(sock); s.sendall(b'{"request":"subscribe"}\n'); s.close()
            ss = [connect(sock) for k in range(6)]
            for s in ss: s.close()
        deadline = time.time() + 10
        while time.time() < deadline:
            ss = [connect(sock) for k in range(4)]
            res = [read_lines(s, 1)[0].get("error", "hello") for s in ss]
            for s in ss: s.close()
            if res == ["hello"] * 4: return res
            time.sleep(0.2)
        return res
    r = as_user(us[0], gid, [gid], churn)
    if r != ["hello"] * 4: bad.append("after churn uid %d gets %r (limit 4)" % (us[0], r))
    p.kill(); p.wait()
    logp = os.path.join(TMP, "d.log"); cfg = os.path.join(TMP, "c.yaml"); open(cfg, "w").write('socket:\n  mode: "0666"\n')
    q = subprocess.Popen(["prlimit", "--nofile=48:48", BIN, "daemon", "--replay", F01, "--socket", sock + "2", "--config", cfg,
                          "--http", "127.0.0.1:0", "--speed", "5"], stdout=open(logp, "wb"), stderr=subprocess.STDOUT)
    PROCS.append(q); q.logpath = logp
    deadline = time.time() + 10
    while time.time() < deadline and "ready" not in open(logp).read(): time.sleep(0.05)
    port = http_port(q)
    root = connect(sock + "2"); read_lines(root, 1)
    kids = []
    for uid in us:
        rr, w = os.pipe(); pid = os.fork()
        if pid == 0:
            os.setgroups([]); os.setgid(gid); os.setuid(uid); ss = []
            for i in range(32):
                try: ss.append(connect(sock + "2"))
                except OSError: break
            os.write(w, b"1"); time.sleep(40); os._exit(0)
        os.read(rr, 1); kids.append(pid)
    deadline = time.time() + 5
    while time.time() < deadline and "cannot accept" not in open(logp).read(): time.sleep(0.1)
    if "cannot accept" not in open(logp).read(): bad.append("descriptors were not exhausted (test setup)")
    cpu0 = sum(int(x) for x in open("/proc/%d/stat" % q.pid).read().split()[13:15]); t0 = time.time()
    root.sendall(b'{"id":1,"request":"ping"}\n')
    got = read_lines(root, 1, 5)
    if not got or got[0].get("id") != 1: bad.append("connected root client not served during exhaustion: %r" % got)
    time.sleep(2)
    cpu = sum(int(x) for x in open("/proc/%d/stat" % q.pid).read().split()[13:15]) - cpu0
    hz = os.sysconf("SC_CLK_TCK")
    if cpu / hz > 0.5 * (time.time() - t0): bad.append("daemon spins during exhaustion: %.2fs CPU in %.2fs" % (cpu / hz, time.time() - t0))
    for pid in kids: os.kill(pid, 9); os.waitpid(pid, 0)
    deadline = time.time() + 5; ok = False
    while time.time() < deadline and not ok:
        h = first_messages(sock + "2", 1)
        st = status(http_tcp(port, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port))
        ok = bool(h) and h[0].get("type") == "hello" and "200" in st
        time.sleep(0.2)
    if not ok: bad.append("listeners did not recover after the descriptors came back: %r %s" % (h, st))
    if q.poll() is not None: bad.append("daemon exited (%r)" % q.returncode)
    if bad: finish(True, "; ".join(bad))
    finish(False, "per-uid counts do not leak; descriptor exhaustion backs off, keeps serving, recovers")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
