#!/usr/bin/env python3
"""Seq accounting with merged moves: a subscriber reading in bursts behind a small queue.mergeAfter (16)
gets last seq - snapshot seq == messages received + sum(merged) at its unsubscribe reply, strictly
increasing seqs, and no moved/ended of a stroke it never saw begin (began/ended never dropped)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start(queue={"mergeAfter": 16, "disconnectAfter": 100000, "disconnectAfterBytes": 64*1024*1024, "disconnectAfterSeconds": 5})
STREAM=("began","moved","ended","cancelled","deviceAdded","deviceRemoved")
c = C(sock); c.line(); c.send({"id":1,"request":"subscribe"})
c.line(); snap = c.line(); s0 = snap["seq"]
live = {s["stroke"] for s in snap["strokes"]}
recv=0; merged=0; last=s0; bad=[]; bye=None
def take(m):
    global recv, merged, last
    if m["seq"]<=last: bad.append(("order",last,m["seq"]))
    last=m["seq"]; recv+=1; merged+=m.get("merged",0)
    if m["type"]=="began": live.add(m["stroke"])
    elif m["type"] in ("ended","cancelled"):
        if m["stroke"] not in live: bad.append(("end-unseen",m["stroke"]))
        live.discard(m["stroke"])
    elif m["type"]=="moved" and m["stroke"] not in live: bad.append(("move-unseen",m["stroke"]))
t=time.time()
while time.time()-t<10 and not bye:
    time.sleep(0.2)
    for i in range(50):
        m = c.line()
        if m["type"] in STREAM: take(m)
        elif m["type"]=="goodbye": bye=m; break
c.send({"id":3,"request":"unsubscribe"})
while not bye:
    m=c.line()
    if m is None or m["type"]=="goodbye": bye=m; break
    if m["type"] in STREAM: take(m)
    elif m["type"]=="reply" and m["id"]==3: break
print("snapshot", s0, "last", last, "received", recv, "merged", merged, "diff", last-s0-recv-merged, "bad", bad[:5], "goodbye", bye)
if bye or bad or merged==0 or last-s0!=recv+merged:
    print("BROKEN: seq accounting / lifecycle broke under merging"); sys.exit(1)
print("HELD: last-snapshot == received + sum(merged) (%d == %d + %d), lifecycle complete" % (last-s0, recv, merged))
