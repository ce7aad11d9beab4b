#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-188: allow-list edge cases and descriptors sent to the daemon. Empty lists fail closed
# (allowUids: [] admits only root); a peer's supplementary groups count up to 128 and, past 128, only
# its primary group (as documented), without crashing the daemon even at 65536 groups; descriptors a
# client sends with SCM_RIGHTS are not installed in the daemon (no descriptor exhaustion).
import array
try:
    bad = []
    g = mkgroup("advtestg188"); u = mkuser("advtest188", "advtestg188")
    for c in ['  allowUids: []\n', '  allowGids: []\n', '  allowUids: [99999]\n  allowGids: []\n']:
        sock = os.path.join(TMP, "s%d.sock" % len(PROCS))
        p = start_daemon(sock, 'socket:\n  mode: "0666"\n' + c)
        r = as_user(u, g, [g], lambda: [m.get("error", m.get("type")) for m in first_messages(sock, 1)])
        if r != ["forbidden"]: bad.append("%r admitted uid %d: %r" % (c.strip(), u, r))
        p.kill(); p.wait()
    sock = os.path.join(TMP, "g.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\n  allowGids: [60000]\n')
    for n, want in [(1, "hello"), (128, "hello"), (129, "forbidden"), (65536, "forbidden")]:
        gl = list(range(61000, 61000 + n - 1)) + [60000]
        r = as_user(50001, 50001, gl, lambda: [m.get("error", m.get("type")) for m in first_messages(sock, 1)])
        if r != [want]: bad.append("%d groups, allowed one last: %r (documented: %s)" % (n, r, want))
        if p.poll() is not None: bad.append("daemon died at %d groups" % n); break
    n0 = len(os.listdir("/proc/%d/fd" % p.pid))
    s = connect(sock); read_lines(s, 1)
    fds = [os.open("/dev/null", os.O_RDONLY) for i in range(200)]
    for i in range(100):
        s.sendmsg([b'{"id":%d,"request":"ping"}\n' % i], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))])
    rr = read_lines(s, 100, 10)
    n1 = len(os.listdir("/proc/%d/fd" % p.pid))
    if n1 - n0 > 5 or len(rr) != 100: bad.append("20000 descriptors sent: daemon fds %d -> %d, %d replies" % (n0, n1, len(rr)))
    for f in fds: os.close(f)
    if bad: finish(True, "; ".join(bad))
    finish(False, "empty allow-lists fail closed; group counting as documented (128); SCM_RIGHTS to the daemon discarded")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
