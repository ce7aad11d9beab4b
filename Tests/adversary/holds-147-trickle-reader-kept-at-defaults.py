#!/usr/bin/env python3
"""docs/protocol.md 'Measured: a client reading 256 bytes every 100 ms is served until its queue is full
(8192 messages, after about 150 s of a 10x replay)': with the default limits (stall 15 s) such a
reader of a 10x replay of 01 is not disconnected within 30 s."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start()
c=C(sock); c.line(); c.send({"id":1,"request":"subscribe"})
t=time.time(); n=0; bye=False; tail=b""
c.s.settimeout(5)
while time.time()-t<30:
    d=c.s.recv(256)
    if not d: bye=True; break
    n+=len(d); tail=(tail+d)[-100:]
    if b'"slowClient"' in tail: bye=True; break
    time.sleep(0.1)
st=stats(sock)["daemon"]
print("read", n, "bytes in", round(time.time()-t,1), "s; stats", st)
if bye or st["slowClientsDisconnected"]:
    print("BROKEN: a 256 B / 100 ms reader was disconnected within 30 s at default limits"); sys.exit(1)
print("HELD: 256 B / 100 ms reader kept for 30 s (queuedBytes %d)" % st["queuedBytes"])
