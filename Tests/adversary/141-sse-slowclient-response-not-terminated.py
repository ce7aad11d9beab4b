#!/usr/bin/env python3
"""An SSE stream cut with goodbye slowClient ends with a TCP close in the middle of the chunked
response (no terminating 0-length chunk), while the shutdown goodbye ends the response properly.
docs/protocol.md SSE: 'a stream that is not read is merged, then ended with goodbye slowClient'.
Deterministic. Low severity: clients see a truncated HTTP response (e.g. curl error 18) instead of an end."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

p, sock, port = start(queue={"disconnectAfterSeconds": 1}, http=True)
res=[]
for trial in range(2):
    s=http_conn(port, "/events", rcvbuf=4096)
    b=stats(sock)["daemon"]["slowClientsDisconnected"]; t=time.time()
    while stats(sock)["daemon"]["slowClientsDisconnected"]==b and time.time()-t<10: time.sleep(0.05)
    raw=drain(s); s.close()
    res.append((b'"slowClient"' in raw[-200:], raw.endswith(b"\r\n0\r\n\r\n"), raw[-60:]))
# control: shutdown
s=http_conn(port, "/events", rcvbuf=1<<20); time.sleep(0.5)
p.send_signal(signal.SIGTERM); raw=drain(s); s.close()
ctrl=raw.endswith(b"\r\n0\r\n\r\n")
print("slowClient trials (goodbye seen, terminated):", [(a,b) for a,b,_ in res], "shutdown terminated:", ctrl)
checked=[r for r in res if r[0]]
if not checked:
    print("HELD: (inconclusive) goodbye not received"); sys.exit(0)
if all(r[1] for r in checked):
    print("HELD: SSE slowClient goodbye ends the chunked response"); sys.exit(0)
print("BROKEN: SSE response cut for slowClient ends without the terminating chunk (0\\r\\n\\r\\n) after goodbye; shutdown ends it properly (%s)" % ctrl)
sys.exit(1)
