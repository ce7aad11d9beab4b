#!/usr/bin/env python3
"""Reconnect storm: 6 threads open ~2000 connections in 10 s (socket: close before/after hello, after
subscribe, resumeAfter random + half-close; SSE with random lastEventId) beside a fast subscriber.
The fast one gets every message unmerged (exact seq accounting), and afterwards the daemon has
1 client, queuedBytes 0, descriptors and RSS back near their start."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

import threading, random
p, sock, port = start(http=True)
time.sleep(2); r0=rss(p); fd0=len(os.listdir("/proc/%d/fd"%p.pid))
res={}
def fast(): fast_subscriber(sock, res)
cnt=[0]; errs=[]
def storm(k):
    rnd=random.Random(k); t=time.time()
    while time.time()-t<10:
        try:
            mode=rnd.randrange(5)
            if mode==4:
                s=http_conn(port, "/events?lastEventId=%d" % rnd.randrange(1,5000), rcvbuf=2048); time.sleep(rnd.random()*0.05); s.close()
            else:
                c=C(sock, rcvbuf=2048)
                if mode>0: c.line()
                if mode>=2: c.send({"id":1,"request":"subscribe","resumeAfter":rnd.randrange(1,5000)} if mode==3 else {"id":1,"request":"subscribe"})
                if mode==3: c.s.shutdown(socket.SHUT_WR)
                time.sleep(rnd.random()*0.05); c.close()
            cnt[0]+=1
        except Exception as e: errs.append(repr(e))
th=threading.Thread(target=fast); th.start()
ss=[threading.Thread(target=storm,args=(k,)) for k in range(6)]
for s in ss: s.start()
for s in ss: s.join()
th.join(); time.sleep(4)
st=stats(sock)["daemon"]; fd1=len(os.listdir("/proc/%d/fd"%p.pid)); r1=rss(p)
print("connections", cnt[0], "errors", len(errs), errs[:3], "fast", res, "stats", st, "rss", r0, r1, "fds", fd0, fd1)
if errs or res.get("bye") or res.get("mg") or res.get("diff") or "n" not in res or st["clients"]!=1 or st["queuedBytes"] or fd1>fd0+3 or r1>r0+10:
    print("BROKEN: reconnect storm left state behind or disturbed the fast client"); sys.exit(1)
print("HELD: %d connections stormed; fast client exact (%d msgs, 0 merged); clients 1, fds %d->%d, RSS %d->%d MB" % (cnt[0], res["n"], fd0, fd1, r0, r1))
