#!/usr/bin/env python3
"""Finding 137: HTTP clients that pipeline GET requests and never read the answers make the
daemon hold ~4 MB each: 64 connections (the default http.maxConnections) sending ~5 MB of
`GET /healthz` each take the daemon's RSS from ~21 MB to ~300 MB (past the unit's
MemoryMax=256M).

docs/protocol.md, "HTTP, SSE and WebSocket": "Requests pipelined on one connection are answered
in order, each once the connection has taken the answers before it (NIO's high-water mark,
64 KiB): a client that sends requests and does not read the answers gets no more of them built,
and its further requests stay unread in its socket."
Exit 1 (BROKEN) while RSS grows by more than 1 MB per connection.
Fixed: the daemon reads at most 16 KiB of a connection at a time; the rest waits in the kernel.
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

N = 64; BYTES = 5000000; DUR = 10.0
PORT = free_port()
d = Daemon(replay=REC03, loop=False, http='127.0.0.1:%d' % PORT)
time.sleep(0.5); base = d.rss_kb()
rq = ('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n' % PORT).encode()
conns = [socket.create_connection(('127.0.0.1', PORT)) for _ in range(N)]
sent = sum(flood(conns, rq * (65536 // len(rq)), DUR, limit=BYTES))
grown = d.rss_kb() - base
print('RSS %d kB -> %d kB: +%d kB (%.0f kB per connection); requests sent %.1f MB in all' % (base, base + grown, grown, grown / N, sent / 1e6))
if grown / N > 1024:
    broken('%d HTTP connections pipelining GET /healthz without reading grow the daemon by %d MB (%.1f MB each), though pipelined requests beyond the 64 KiB high-water mark are documented to stay unread in the socket' % (N, grown // 1024, grown / N / 1024))
held('pipelined HTTP requests do not pile up in the daemon (%.0f kB per connection)' % (grown / N))
