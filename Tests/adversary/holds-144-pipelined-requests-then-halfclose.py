#!/usr/bin/env python3
"""A client that pipelines 3000 pings (or 40 history requests) then subscribe, shuts down its sending side
and reads nothing for 2 s: every request is answered once, in order, the subscribe is honoured
(stream flows after the half-close, no clientClosed goodbye)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start(queue={"disconnectAfterSeconds": 10})
bad=[]
for variant,N in (("ping",3000),("history",40)):
    c=C(sock); c.line()
    reqs=b"".join((json.dumps({"id":i,"request":variant})+"\n").encode() for i in range(1,N+1))
    reqs+=b'{"id":"S","request":"subscribe"}\n'
    c.s.sendall(reqs); c.s.shutdown(socket.SHUT_WR)
    time.sleep(2)
    ids=[]; sub=False; streamn=0; other=[]
    t=time.time()
    while time.time()-t<10:
        m=c.line(5)
        if m is None: other.append("EOF"); break
        if m["type"]=="reply":
            if m["id"]=="S": sub=True
            else: ids.append(m["id"])
        elif m["type"] in ("moved","began","ended","cancelled"): streamn+=1
        elif m["type"]!="snapshot": other.append(m)
        if sub and streamn>100: break
    ok = ids==list(range(1,N+1)) and sub and streamn>100 and not other
    print(variant, "replies", len(ids), "in order", ids==list(range(1,N+1)), "subscribed", sub, "stream", streamn, other[:3])
    if not ok: bad.append(variant)
    c.close()
if bad:
    print("BROKEN: pipelined requests + half-close lost replies or the subscription:", bad); sys.exit(1)
print("HELD: all pipelined requests answered in order, subscription honoured after half-close")
