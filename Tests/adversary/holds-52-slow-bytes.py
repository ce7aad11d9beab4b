#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): past queue.disconnectAfterBytes queued bytes the client is
# disconnected (goodbye slowClient); its queue is dropped at once; began/ended/cancelled never dropped.
LIMIT = 70000
d = Daemon(config='queue:\n  disconnectAfterBytes: %d\n  mergeAfter: 100000\n  disconnectAfter: 100000\n  disconnectAfterSeconds: 600\n' % LIMIT,
           replay=REC01, loop=True, speed=10)
slow = Client(d.sock); slow.send({'id': 1, 'request': 'subscribe'})
mon = Client(d.sock)
maxq = 0; t0 = time.time(); cut = None
got = b''
while time.time() - t0 < 90:
    # read 512 bytes every 100 ms
    r, _, _ = select.select([slow.s], [], [], 0)
    if r:
        x = slow.s.recv(512)
        if not x: break
        got += x
    st = mon.request({'id': 's', 'request': 'stats'})
    maxq = max(maxq, st['daemon']['queuedBytes'])
    if st['daemon']['slowClientsDisconnected'] >= 1:
        cut = time.time() - t0; break
    time.sleep(0.1)
if cut is None: broken('slow reader never disconnected in 90 s (max queuedBytes %d, limit %d)' % (maxq, LIMIT))
got += b''.join(iter(lambda: (slow.s.recv(1 << 20) if select.select([slow.s], [], [], 5)[0] else b''), b''))
lines = [json.loads(l) for l in got.split(b'\n') if l.strip()]
d.stop()
last = lines[-1]
print('cut after %.1fs, max queuedBytes seen %d, last %r' % (cut, maxq, last))
if maxq > LIMIT + 4096: broken('queuedBytes reached %d > disconnectAfterBytes %d' % (maxq, LIMIT))
if last.get('type') != 'goodbye' or last.get('reason') != 'slowClient': broken('no goodbye slowClient: last %r' % last)
snap = [m for m in lines if m.get('type') == 'snapshot'][0]
err = lifecycle_check(lines, [s['stroke'] for s in snap['strokes']])
if err: broken(err)
held('byte limit respected (max %d <= %d), goodbye slowClient' % (maxq, LIMIT))
