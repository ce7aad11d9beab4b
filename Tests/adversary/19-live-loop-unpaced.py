#!/usr/bin/env python3
"""docs/security.md, "What a client can and cannot do": what a client can cost the daemon is
bounded. It was per request only: a client asking for `live` in a loop during a resting contact
(each reply ~1.4 MB here, ~20 ms of the event loop in a release build, which also reads the
devices) kept the daemon busy for as long as it liked. docs/protocol.md, "Limits": requests are
read as long as their replies stay within requests.burstBytes (8 MiB) at once and
requests.bytesPerSecond (2 MiB/s) after that; every request is still answered, in order.

One contact held for 40 000 frames (never lifted), then one client asks for `live` back to back
for 8 s, reading each reply as it comes: the bytes it gets must stay within the pace (with 5 %
slack, and the one reply that takes it past the pace), every reply must be the one asked for,
and `stats` must count the waits (`you.paced`).
Run: python3 19-live-loop-unpaced.py /path/to/strokes   (exit 0 HELD, 1 BROKEN, 2 setup)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

TMP = scratch_dir('advx-pace-')
FRAMES = 40000
BURST, RATE, SECONDS = 8 << 20, 2 << 20, 8

def resting_contact(path):
    """03's header, one finger down for FRAMES frames (moving 1 unit to and fro), never lifted."""
    src = open(REC03, 'rb').read().split(b'\n')
    i = next(k for k, l in enumerate(src) if l.startswith(b'E:'))
    out = src[:i]
    def ev(t, ty, code, val): out.append(b'E: %d.%06d %04x %04x %d' % (t // 1000000, t % 1000000, ty, code, val))
    t = 1000000
    for e in ((3, 0x2f, 0), (3, 0x39, 5), (3, 0x35, 100), (3, 0x36, 100), (1, 0x14a, 1), (0, 0, 0)): ev(t, *e)
    for k in range(1, FRAMES):
        t += 10000
        ev(t, 3, 0x35, 100 + k % 2); ev(t, 0, 0, 0)
    open(path, 'wb').write(b'\n'.join(out) + b'\n')

rec = os.path.join(TMP, 'resting.evemu')
resting_contact(rec)
d = Daemon(replay=rec, loop=False, speed=0)
c = Client(d.sock)
t0 = time.time()
while True:
    s = c.request({'id': 'w', 'request': 'stats'}, timeout=30)
    if s and s.get('daemon', {}).get('frames') == FRAMES and s['daemon']['liveStrokes'] == 1: break
    if time.time() - t0 > 60: setup_error('the recording was not served whole: %r' % (s,))
    time.sleep(0.2)
got = 0; n = 0; largest = 0; t0 = time.time()
while time.time() - t0 < SECONDS:
    c.send({'id': n, 'request': 'live'})
    line = c.recv_raw_line(60)
    if line is None: broken('no reply to live request %d' % n)
    if not line.startswith(b'{"type":"reply","id":%d,' % n): broken('reply %d is not the one asked for: %r' % (n, line[:80]))
    got += len(line) + 1; n += 1; largest = max(largest, len(line) + 1)
elapsed = time.time() - t0
you = c.request({'id': 's', 'request': 'stats'}, timeout=30).get('you', {})
# The request that takes the client past its pace is still answered: one reply more.
allowed = (BURST + RATE * elapsed + largest) * 1.05
print('%d live replies of %d bytes in %.1f s: %.1f MB (the pace allows %.1f MB); paced %s'
      % (n, got // max(n, 1), elapsed, got / 1e6, allowed / 1e6, you.get('paced')))
if got > allowed:
    broken('a client looping live got %.1f MB of replies in %.1f s, past requests.burstBytes + bytesPerSecond (%.1f MB)'
           % (got / 1e6, elapsed, allowed / 1e6))
if not you.get('paced'): broken('stats you.paced is %r after the client went past its pace' % you.get('paced'))
held('live in a loop is paced: %.1f MB in %.1f s (at most %.1f MB), every reply the one asked for' % (got / 1e6, elapsed, allowed / 1e6))
