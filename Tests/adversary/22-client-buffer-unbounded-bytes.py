#!/usr/bin/env python3
"""StrokeClient's read-ahead buffer is bounded in messages (`bufferSize`, 8192 by default), not in
bytes: behind a consumer that has stopped, a server's large lines (each well under the 64 MiB
line limit) pile up in the client's memory.

Promised: README, "Clients" / "Swift": "Each connection has one reader thread, which never waits
for the consumer ...: a consumer `bufferSize` messages behind loses the connection after what is
buffered, and the subscription reconnects and resumes ... instead of the client's memory
growing."; Sources/StrokeClient/StrokeConnection.swift: "backpressure, so the daemon's slow-client
policy applies to a slow consumer rather than this process buffering without bound";
Mailbox.swift: "A bounded hand-over".
Setup: `strokes gestures --dry-run` (a StrokeClient consumer) with its standard output a pipe
nobody reads, so its consumer blocks after ~64 KiB of output. The server sends 2000 taps, then
lines of a type the client does not know (kept whole, as protocol.md's `.unknown(type:raw:)`),
each a 4 MiB JSON array.
Broken when the client's RSS passes 256 MB (it starts at ~25 MB) while it is still connected
(500+ MB before the byte bound; ~320 MB while a queued unknown message counted for its line, not
its parsed tree, about 14 times larger; ~175 MB since):
fewer than 30 messages past a blocked consumer, far from `bufferSize`.
Usage: python3 22-client-buffer-unbounded-bytes.py [/path/to/strokes]"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

LIMIT_KB = 256 * 1024
DIR = scratch_dir('advy-mailbox-')
CONFIG = DIR + '/gestures.yaml'
with open(CONFIG, 'w') as f:
    f.write('every: 0ms\nrules:\n  - name: t\n    kind: tap\n    run: ["true"]\n')
TAP = {"type": "gesture", "gesture": 1, "kind": "tap", "phase": "end", "device": 1, "time": 1000,
       "fingers": 1, "strokes": [1], "x": 1, "y": 2, "nx": 0.1, "ny": 0.2, "duration": 5}
state = {'big': 0, 'closed': False}
BIG = b'{"type":"bulk","a":[' + b'0,' * (2 << 20) + b'0]}\n'   # 4 MiB, an unknown type

def flood(c, send, stop):
    try:
        for i in range(2000): send(dict(TAP, gesture=i + 1))
        while not stop.is_set():
            c.sendall(BIG); state['big'] += 1
    except OSError:
        state['closed'] = True
handle = on_subscribe(flood)

path = DIR + '/f.sock'
FakeDaemon(path, handle)
p = subprocess.Popen([BIN, 'gestures', '--socket', path, '--config', CONFIG, '--dry-run'],
                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)   # stdout never read
PROCS.append(p)
t0 = time.time(); peak = 0
while time.time() - t0 < 50:
    time.sleep(0.5)
    if p.poll() is not None:
        setup_error('strokes gestures exited %s' % p.returncode)
    rss = proc_rss_kb(p.pid); peak = max(peak, rss)
    if rss > LIMIT_KB and not state['closed']:
        broken('strokes gestures (StrokeClient) holds %d MB behind a blocked consumer after %d lines of 4 MiB '
               '(%.0f s), still connected: the read-ahead does not bound what it holds' % (rss // 1024, state['big'], time.time() - t0))
    if state['closed'] and time.time() - t0 > 5:
        break
held('client memory stayed under %d MB (peak %d MB, %d big lines sent, connection dropped: %s)'
     % (LIMIT_KB // 1024, peak // 1024, state['big'], state['closed']))
