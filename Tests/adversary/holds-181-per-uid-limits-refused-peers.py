#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-181: maxClientsPerUid is per uid (another uid still connects when one uid holds its
# limit; past it tooManyClients comes instead of hello), and peers the allow-list refuses take no
# slot: 300 refused connections held open do not keep an allowed uid out.
try:
    g = mkgroup("advtestg181h")
    u1 = mkuser("advtest181h1", "advtestg181h"); u2 = mkuser("advtest181h2", "advtestg181h"); u3 = mkuser("advtest181h3", "advtestg181h")
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\n  allowUids: [%d, %d]\nmaxClientsPerUid: 4\nmaxClients: 8\n' % (u1, u2))
    bad = []
    r, w = os.pipe(); pid = os.fork()
    if pid == 0:
        os.setgroups([]); os.setgid(g); os.setuid(u3)
        ss = []
        for i in range(300):
            try: ss.append(connect(sock))
            except OSError: break
        os.write(w, b"1"); time.sleep(40); os._exit(0)
    os.read(r, 1)
    r2, w2 = os.pipe(); pid2 = os.fork()
    if pid2 == 0:
        os.setgroups([]); os.setgid(g); os.setuid(u1)
        ss = [connect(sock) for i in range(6)]
        res = [read_lines(s, 1)[0].get("error", "hello") for s in ss]
        os.write(w2, json.dumps(res).encode() + b"\n"); time.sleep(40); os._exit(0)
    res1 = json.loads(os.read(r2, 4096).split(b"\n")[0])
    if res1 != ["hello"] * 4 + ["tooManyClients"] * 2: bad.append("uid %d's six connections: %r (limit 4)" % (u1, res1))
    res2 = as_user(u2, g, [g], lambda: [m.get("type") for m in first_messages(sock, 1)])
    if res2 != ["hello"]: bad.append("uid %d refused while uid %d holds its per-uid limit and uid %d holds 300 refused connections: %r" % (u2, u1, u3, res2))
    for x in (pid, pid2): os.kill(x, 9); os.waitpid(x, 0)
    if bad: finish(True, "; ".join(bad))
    finish(False, "per-uid limit isolates uids (4 hello, then tooManyClients), refused peers take no slot")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
