#!/usr/bin/env python3
import os, sys, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403
# Promise (docs/security.md, "HTTP"): the HTTP listener "hands the same strokes to whoever can
# reach it, so it is guarded like the socket" with "Bounds: http.maxConnections (64) connections
# ... WebSocket and SSE clients also count against maxClients and get the socket's slow-client
# policy and queue limits"; "What a client can try is to exhaust the daemon, and that is bounded"
# (queue.totalBytes 64 MiB for all), and the unit's MemoryMax=256M is the last resort only "a
# daemon that still grew" hits. protocol.md, "Slow clients": "All clients together may hold at
# most queue.totalBytes (64 MiB)"; "stats' queuedBytes ... are these figures".
# Attack: ONE plain HTTP/1.1 connection pipelines 1000 `GET /history?limit=1000000` (each reply
# one ~288 KB page) and never reads. Every reply is built and held in the daemon: its RSS grows
# by hundreds of MB (past 64 MiB and past MemoryMax=256M), uncharged (stats queuedBytes 0), and
# most of it is not given back after the connection closes. Found by an adversary helper (2026-11-26:
# 26 -> 270 MB). Now the router answers a request only while the connection is writable and
# BackPressureHandler stops reading it meanwhile: +1.2 MB.
N = 1000
port = random.randint(20000, 45000)
d = Daemon(config='', replay=REC01, loop=True, speed=10, http='127.0.0.1:%d' % port)
time.sleep(12)  # history fills (256 strokes)
st = stats(d.sock)
if not st or st['daemon']['completedStrokes'] < 200: setup_error('history did not fill: %r' % (st,))
before = d.rss_kb()
try:
    s = socket.create_connection(('127.0.0.1', port))
except OSError as e:
    setup_error('no HTTP listener: %s' % e)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
req = ('GET /history?limit=1000000 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n' % port).encode()
data = req * N; sent = 0; s.setblocking(False); t0 = time.time()
while sent < len(data) and time.time() - t0 < 20:
    try: sent += s.send(data[sent:])
    except BlockingIOError: time.sleep(0.05)
peak = 0; qb = None
for _ in range(6):
    time.sleep(1)
    peak = max(peak, d.rss_kb())
    st = stats(d.sock)
    if st is None: broken('the daemon stopped answering stats (RSS %d kB)' % d.rss_kb())
    qb = st['daemon']['queuedBytes']
if not d.alive(): broken('the daemon died: %s' % d.stderr()[-500:])
s.close()
after, _ = rss_settles(d, before, 8 * 1024, timeout=8)
print('%d pipelined requests sent on one connection; RSS %d kB before, %d kB peak (stats queuedBytes %d), %d kB 8 s after closing'
      % (sent // len(req), before, peak, qb, after))
grew = peak - before
if grew > 16 * 1024:
    broken('one HTTP connection that pipelines GET /history and never reads made the daemon hold %d MB more '
           '(RSS %d -> %d kB; more than queue.totalBytes 64 MiB, and past MemoryMax=256M: %s), charged nowhere '
           '(queuedBytes %d); %d kB still held 8 s after it closed' % (grew // 1024, before, peak,
           'yes' if peak > 256 * 1024 else 'no', qb, after))
held('RSS grew only %d kB (%d -> %d)' % (grew, before, peak))
