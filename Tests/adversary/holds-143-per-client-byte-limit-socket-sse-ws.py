#!/usr/bin/env python3
"""A never-reading client on the Unix socket, SSE and WebSocket (1 KiB receive buffers), and one that
pipelines 20 history requests without reading: the daemon's queuedBytes never exceeds
queue.disconnectAfterBytes (128 KiB) by more than a frame, and each is cut (slowClient)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

LIM=128*1024
p, sock, port = start(queue={"disconnectAfterBytes": LIM, "disconnectAfterSeconds": 30}, http=True)
mon=C(sock); mon.line()
def q():
    mon.send({"id":"q","request":"stats"}); m=mon.until(lambda m:m.get("type")=="reply"); return m["daemon"]
bad=[]
for kind in ("unix","sse","ws","unix-history"):
    if kind.startswith("unix"):
        s=C(sock, rcvbuf=1024); s.line(); s.send({"id":1,"request":"subscribe"})
        if kind=="unix-history":
            for i in range(20): s.send({"id":i+2,"request":"history"})
        s=s.s
    elif kind=="sse": s=http_conn(port,"/events",rcvbuf=1024)
    else:
        s=http_conn(port,"/ws",ws=True,rcvbuf=1024); time.sleep(0.2); s.sendall(ws_frame('{"id":1,"request":"subscribe"}'))
    b=q()["slowClientsDisconnected"]; mx=0; t=time.time(); d=None
    while time.time()-t<8:
        d=q(); mx=max(mx,d["queuedBytes"])
        if d["slowClientsDisconnected"]>b: break
    cut=d["slowClientsDisconnected"]>b
    print(kind, "max queuedBytes", mx, "limit", LIM, "cut", cut)
    if mx>LIM+2048 or not cut: bad.append(kind)
    s.close()
if bad:
    print("BROKEN: per-client byte limit not enforced for", bad); sys.exit(1)
print("HELD: queuedBytes stayed within disconnectAfterBytes and each slow client was cut (socket, SSE, WS, pipelined history)")
