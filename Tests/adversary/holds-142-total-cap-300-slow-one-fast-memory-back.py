#!/usr/bin/env python3
"""300 subscribers that never read (2 KiB receive buffers) beside one fast subscriber, queue.totalBytes 8 MiB,
10x replay of 01: stats queuedBytes never exceeds totalBytes, the fast client gets every message
unmerged (exact seq accounting), and RSS returns to within 10 MB of its start after the slow ones leave."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

import threading
TOT=8*1024*1024
p, sock, port = start(queue={"totalBytes": TOT, "disconnectAfterSeconds": 30})
time.sleep(1); r0=rss(p)
res={}
def fast(): fast_subscriber(sock, res)
th=threading.Thread(target=fast); th.start()
slow=[]
for i in range(300):
    c=C(sock, rcvbuf=2048); c.line(); c.send({"id":1,"request":"subscribe"}); slow.append(c)
mx=0; peak=0; t=time.time()
while time.time()-t<12:
    st=stats(sock)["daemon"]; mx=max(mx, st["queuedBytes"]); peak=max(peak, rss(p)); time.sleep(0.2)
th.join()
for c in slow: c.close()
time.sleep(5)
r1=rss(p); st=stats(sock)["daemon"]
print("rss start", r0, "peak", peak, "after", r1, "max queuedBytes", mx, "cap", TOT, "fast", res, st)
if mx > TOT + 64*1024 or res.get("bye") or res.get("mg") or res.get("diff") or r1 > r0 + 10 or st["queuedBytes"]>0:
    print("BROKEN: total cap / fast client / memory return failed"); sys.exit(1)
print("HELD: queuedBytes peak %d <= cap %d; fast client got %d messages unmerged; RSS %d -> %d -> %d MB" % (mx, TOT, res["n"], r0, peak, r1))
