#!/usr/bin/env python3
"""Finding 130: memory held for clients that pipeline requests without reading is ~5-6x what the
daemon charges them (queuedBytes), so queue.totalBytes (64 MiB) does not bound the daemon's
memory: 256 never-reading clients (default maxClients) that each send ~200 KB of
{"request":"ping"} lines push RSS far past the cap (and past the unit's MemoryMax=256M).

docs/protocol.md, "Slow clients": "A queued message counts as its line's bytes (newline
included) plus 64 for the daemon's record of it: what holding it costs"; README: "queue storage
stays proportional to what is held ... what a client holds is charged with its records".
Exit 1 (BROKEN) while RSS growth > 2.5 x the daemon's own queuedBytes figure.
Fixed: a reply is charged its buffer; requests wait in the kernel; NIO takes replies in
batches.
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

NCLI = 128; PER_CLIENT = 150000; DUR = 6.0  # sized for the debug build under load
d = Daemon(config='maxClients: 2000\nmaxClientsPerUid: 2000\n', replay=REC03, loop=False)
time.sleep(0.5); base = d.rss_kb(); peak = [base]
clients = []
for i in range(NCLI):
    c = socket.socket(socket.AF_UNIX); c.connect(d.sock); clients.append(c)
def note_peak(): peak[0] = max(peak[0], d.rss_kb())
flood(clients, b'{"id":1,"request":"ping"}\n' * 2520, DUR, limit=PER_CLIENT, tick=note_peak)
st = stats(d.sock)['daemon']
now = d.rss_kb(); grown_kb = now - base; queued_kb = st['queuedBytes'] / 1024
ratio = grown_kb / max(queued_kb, 1)
print('RSS %d kB -> %d kB (peak %d); daemon says queuedBytes=%d (%.0f kB); ratio %.1f; clients %d, slowClientsDisconnected %d'
      % (base, now, peak[0], st['queuedBytes'], queued_kb, ratio, st['clients'], st['slowClientsDisconnected']))
if ratio > 2.5:
    broken('never-reading ping clients cost %.1fx the queuedBytes they are charged: RSS grew %d MB while queuedBytes (capped by queue.totalBytes 64 MiB) is %d MB' % (ratio, grown_kb // 1024, queued_kb // 1024))
held('queued memory is charged within 2.5x of its real cost (ratio %.1f)' % ratio)
