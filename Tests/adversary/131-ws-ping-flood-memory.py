#!/usr/bin/env python3
"""Finding 131: WebSocket clients that send ping control frames and never read their pongs
make the daemon hold ~4-5 MB each. 60 of them (under the default http.maxConnections 64) take
the daemon's RSS past 250 MB (the unit's MemoryMax=256M), and the event loop is so busy with
them that a Unix-socket client waits seconds for its hello.

docs/protocol.md, "WebSocket": "While more than NIO's high-water mark (64 KiB) of what the
daemon wrote to it waits to be sent, the daemon reads no more of its frames"; "A ping gets its
pong ...; pings count against the connection's request pacing as requests do, each as 1 KiB."
Expected: a few hundred KB per connection at most.
Exit 1 (BROKEN) while RSS grows by more than 1 MB per connection.
Fixed: pings read together get one pong, the latest's (RFC 6455 5.5.3).
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

N = 60; DUR = 10.0
PORT = free_port()
d = Daemon(replay=REC03, loop=False, http='127.0.0.1:%d' % PORT)
time.sleep(0.5); base = d.rss_kb()
conns = []
for i in range(N):
    ws = WS(PORT)
    if ws.status != 101: setup_error('no upgrade: %r' % ws.head[:100])
    conns.append(ws.s)
worst = [0.0, 0.0]  # the longest wait for a socket client's hello; when one was last timed
def time_a_hello():
    if time.time() - worst[1] < 2: return
    worst[1] = time.time(); t = time.time()
    c = Client(d.sock, timeout=20); c.close()
    worst[0] = max(worst[0], time.time() - t)
ping = bytes([0x89, 0x80]) + b'\0\0\0\0'  # masked, empty
flood(conns, ping * (65536 // len(ping)), DUR, tick=time_a_hello)
grown = d.rss_kb() - base
per = grown / N
print('RSS grew %d kB (%.0f kB per WebSocket connection); worst Unix-socket hello wait %.2f s' % (grown, per, worst[0]))
if per > 1024:
    broken('%d WebSocket clients sending pings without reading pongs grow the daemon by %d MB (%.1f MB each; 64 KiB high-water mark documented); a Unix client waited %.1f s for hello' % (N, grown // 1024, per / 1024, worst[0]))
held('WebSocket ping flood stays bounded (%.0f kB per connection)' % per)
