#!/usr/bin/env python3
"""A subscriber that stops reading is cut by the stall timer (1.5 s); it drains to the goodbye, reconnects
at once with resumeAfter = last seq seen and gets resumed:true with every later seq exactly once,
unmerged, and no moved/ended of a stroke it never saw begin."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start(queue={"disconnectAfterSeconds": 1.5}, speed=5)
STREAM=("began","moved","ended","cancelled","deviceAdded","deviceRemoved")
c=C(sock); c.line(); c.send({"id":1,"request":"subscribe"}); c.line(); snap=c.line()
live={s["stroke"] for s in snap["strokes"]}; last=snap["seq"]; bad=[]; bye=None
t=time.time()
while stats(sock)["daemon"]["slowClientsDisconnected"]==0 and time.time()-t<15: time.sleep(0.05)
while True:
    m=c.line(10)
    if m is None or m["type"]=="goodbye": bye=m; break
    if m["type"] in STREAM:
        if m["seq"]<=last: bad.append(("order",last,m["seq"]))
        last=m["seq"]
        if m["type"]=="began": live.add(m["stroke"])
        elif m["type"] in ("ended","cancelled"): live.discard(m["stroke"])
c.close()
c=C(sock); c.line(); c.send({"id":2,"request":"subscribe","resumeAfter":last}); r=c.line()
gaps=0; k=0; t=time.time()
while time.time()-t<5 and r.get("resumed"):
    m=c.line()
    if m is None: bad.append("EOF"); break
    if m["type"] not in STREAM: bad.append(m["type"]); continue
    if m["seq"]!=last+1: gaps+=1
    if "merged" in m: bad.append("merged")
    if m["type"]=="began": live.add(m["stroke"])
    elif m["type"] in ("ended","cancelled"):
        if m["stroke"] not in live: bad.append(("end-unseen",m["stroke"]))
        live.discard(m["stroke"])
    elif m["type"]=="moved" and m["stroke"] not in live: bad.append(("move-unseen", m["stroke"]))
    last=m["seq"]; k+=1
print("goodbye", bye, "resume reply", r, "messages after", k, "gaps", gaps, "bad", bad[:5])
if not bye or bye.get("reason")!="slowClient" or not r.get("resumed") or gaps or bad or k<100:
    print("BROKEN: resume right after a slowClient cut was not exact"); sys.exit(1)
print("HELD: resumed:true after a slowClient cut, %d messages, no gap, none merged" % k)
