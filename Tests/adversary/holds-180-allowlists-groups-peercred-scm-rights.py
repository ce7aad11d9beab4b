#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# holds-180: socket.allowUids / allowGids: a peer is admitted by its primary group or a
# supplementary group (SO_PEERGROUPS), refused otherwise (forbidden, before any hello), root always;
# credentials are the connecting process's (SO_PEERCRED at connect): an fd passed with SCM_RIGHTS to
# root keeps its connector's uid, and a SIGHUP that takes that uid off the lists disconnects it.
import array
try:
    g1 = mkgroup("advtestg180h1"); g2 = mkgroup("advtestg180h2")
    u1 = mkuser("advtest180h1", "advtestg180h2", ["advtestg180h1"]); u2 = mkuser("advtest180h2", "advtestg180h2")
    sock = os.path.join(TMP, "s.sock")
    p = start_daemon(sock, 'socket:\n  mode: "0666"\n  allowGids: [%d]\n' % g1)
    bad = []
    r = as_user(u1, g2, [g2, g1], lambda: first_messages(sock, 2, {"id": 1, "request": "ping"}))
    if not (r and r[0].get("type") == "hello"): bad.append("supplementary-group member refused: %r" % r[:1])
    r = as_user(u1, g2, [g2], lambda: first_messages(sock, 1))
    if not (r and r[0].get("error") == "forbidden"): bad.append("peer without the group admitted: %r" % r[:1])
    r = as_user(u2, g1, [], lambda: first_messages(sock, 1))
    if not (r and r[0].get("type") == "hello"): bad.append("primary-group member refused: %r" % r[:1])
    r = first_messages(sock, 1)
    if not (r and r[0].get("type") == "hello"): bad.append("root refused: %r" % r[:1])
    p.kill(); p.wait()
    # SCM_RIGHTS + reload
    sock2 = os.path.join(TMP, "t.sock")
    q = start_daemon(sock2, 'socket:\n  mode: "0666"\n  allowUids: [%d, %d]\n' % (u1, u2))
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    def conn_and_pass():
        s = connect(sock2); h = read_lines(s, 1)
        a.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [s.fileno()]))])
        return h
    as_user(u1, g2, [g2], conn_and_pass)
    msg, anc, fl, ad = b.recvmsg(1, socket.CMSG_LEN(4))
    fds = array.array("i"); fds.frombytes(anc[0][2][:4]); s1 = socket.socket(fileno=fds[0])
    rootconn = connect(sock2); read_lines(rootconn, 1)
    open(q.cfg, "w").write('socket:\n  mode: "0666"\n  allowUids: [%d]\n' % u2)
    q.send_signal(signal.SIGHUP)
    got = read_lines(s1, 3, 8)
    if not (got and got[0].get("error") == "forbidden" and any(m.get("reason") == "forbidden" for m in got)):
        bad.append("fd connected by uid %d, held by root, not disconnected when the reload removed uid %d: %r" % (u1, u1, got))
    rootconn.sendall(b'{"id":2,"request":"ping"}\n')
    rr = read_lines(rootconn, 1, 5)
    if not (rr and rr[0].get("type") == "reply"): bad.append("root's own connection lost at reload: %r" % rr)
    if bad: finish(True, "; ".join(bad))
    finish(False, "allow-lists admit primary and supplementary groups and root, refuse others before hello; SCM_RIGHTS-passed fd keeps its connector's credentials and is cut at reload")
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
