#!/usr/bin/env python3
"""A WebSocket client cut with goodbye slowClient gets no close frame 1000 after the goodbye frame
(docs/protocol.md: 'When the daemon ends a client (goodbye), a close frame 1000 follows the goodbye frame.').
Deterministic: a never-reading WS subscriber is cut by the stall timer (1 s) and then read to EOF."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slow_round import *  # noqa: F401,F403 (start, C, stats, rss, http_conn, ws_frame, BIN, FIX)

def frames(data):
    out=[]; i=0
    while i+2<=len(data):
        op=data[i]&0x0f; n=data[i+1]&0x7f; j=i+2
        if n==126: n=struct.unpack(">H",data[j:j+2])[0]; j+=2
        elif n==127: n=struct.unpack(">Q",data[j:j+8])[0]; j+=8
        if j+n>len(data): break
        out.append((op,data[j:j+n])); i=j+n
    return out
p, sock, port = start(queue={"disconnectAfterSeconds": 1}, http=True)
results=[]
for trial in range(3):
    s=http_conn(port, "/ws", ws=True, rcvbuf=4096)
    time.sleep(0.2); s.sendall(ws_frame('{"id":1,"request":"subscribe"}'))
    b=stats(sock)["daemon"]["slowClientsDisconnected"]; t=time.time()
    while stats(sock)["daemon"]["slowClientsDisconnected"]==b and time.time()-t<10: time.sleep(0.05)
    raw=drain(s); s.close()
    hd=raw.find(b"\r\n\r\n"); fr=frames(raw[hd+4:])
    texts=[f for f in fr if f[0]==1]
    got_bye = bool(texts) and b'"slowClient"' in texts[-1][1]
    close=[f for f in fr if f[0]==8]
    results.append((got_bye, close[0][1][:2] if close else None, fr[-1][0] if fr else None))
print("trials (goodbye seen, close payload, last opcode):", results)
# the goodbye is delivered within the 2 s grace; the docs promise a close frame 1000 after it
checked=[r for r in results if r[0]]
if not checked:
    print("HELD: (inconclusive) no trial received the goodbye frame"); sys.exit(0)
if all(r[1]==b"\x03\xe8" for r in checked):
    print("HELD: WebSocket slowClient goodbye is followed by close frame 1000"); sys.exit(0)
print("BROKEN: WebSocket client cut for slowClient gets the goodbye text frame and then TCP EOF, no close frame 1000 (%d/%d trials)" % (sum(1 for r in checked if r[1]!=b'\x03\xe8'), len(checked)))
sys.exit(1)
