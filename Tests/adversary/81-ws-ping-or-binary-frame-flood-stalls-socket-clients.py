#!/usr/bin/env python3
"""One WebSocket client that sends ping control frames as fast as it can (and reads its pongs),
or binary frames (each answered with an `invalidJSON` error), holds up the Unix-socket clients: a
socket client's `ping` request takes ~200-400 ms instead of <1 ms. Neither is paced; the same
client flooding `{"request":"ping"}` text frames (paced), next to a process burning a CPU core,
leaves the socket client's round trip under a few ms.

docs/security.md, abuse table: "ask again and again (... a flood of `ping`s) | per client (socket,
WebSocket, each HTTP connection): requests.burstBytes ... then requests.bytesPerSecond ...; each
request counts 1 KiB at least" (the bound that keeps one client from holding the event loop, which also
serves the socket); docs/protocol.md, WebSocket: "A ping gets its pong" (control frames are not
mentioned as exempt)."""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

P = 17888
FLOOD = r'''
import sys, os, threading, socket
sys.path.insert(0, %r)
from common import WS
kind = sys.argv[2]
if kind == 'burn':
    while True: pass
w = WS(int(sys.argv[1])); w.s.settimeout(None)
blob = {'control': w.frame(9, b''), 'binary': w.frame(2, b'x'), 'text': w.frame(1, b'{"request":"ping"}')}[kind] * 4000
def rd():
    while w.s.recv(1 << 20): pass
threading.Thread(target=rd, daemon=True).start()
while True: w.s.sendall(blob)
''' % os.path.dirname(os.path.abspath(__file__))
d = Daemon(http='127.0.0.1:%d' % P)
c = Client(d.sock)
def rtt(n=25):
    xs = []
    for i in range(n):
        t = time.time(); r = c.request({'id': i, 'request': 'ping'}, timeout=10); xs.append(time.time() - t if r else 10)
        time.sleep(0.05)
    xs.sort(); return xs[n // 2] * 1e3, xs[-1] * 1e3
def under(kinds):
    fs = [subprocess.Popen([sys.executable, '-c', FLOOD, str(P), k]) for k in kinds]; PROCS.extend(fs)
    time.sleep(1)
    r = rtt()
    for f in fs: f.kill(); f.wait()
    time.sleep(0.5)
    return r
idle = rtt()
paced = under(['text', 'burn'])
ctl = under(['control'])
binf = under(['binary'])
print('socket client ping round trip, p50 / max: idle %.1f / %.1f ms; WS text-ping flood + CPU burner %.1f / %.1f ms; '
      'WS ping-frame flood %.1f / %.1f ms; WS binary-frame flood %.1f / %.1f ms' % (idle + paced + ctl + binf))
lim = max(20, 10 * paced[0])
if ctl[0] > lim or binf[0] > lim:
    broken('one WebSocket client flooding ping control frames / binary frames raised a Unix-socket client\'s request '
           'round trip to %.0f / %.0f ms median (%.0f / %.0f ms max), against %.1f ms under a paced text-ping flood plus a '
           'CPU burner; ' % (ctl[0], binf[0], ctl[1], binf[1], paced[0]) +
           'security.md: floods are paced per client (WebSocket included)')
held('WebSocket ping-frame and binary-frame floods leave the socket clients\' latency unchanged')
