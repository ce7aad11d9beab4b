#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): a client whose socket takes nothing for
# queue.disconnectAfterSeconds while messages wait is disconnected; it gets
# {"type":"goodbye","reason":"slowClient"} if its socket takes it within 2 seconds; others keep being served.
STALL = 3
d = Daemon(config='queue:\n  disconnectAfterSeconds: %d\n' % STALL, replay=REC01, loop=True, speed=10)
bad = Client(d.sock); bad.send({'id': 1, 'request': 'subscribe'})
good = Client(d.sock); good.send({'id': 1, 'request': 'subscribe'})
gmsgs = []
t0 = time.time(); t_cut = None
mon = Client(d.sock)
while time.time() - t0 < 30:
    # keep the good client drained
    while True:
        m = good.recv(0.02)
        if m is None: break
        gmsgs.append(m)
    r = mon.request({'id': 's', 'request': 'stats'})
    if r['daemon']['slowClientsDisconnected'] >= 1:
        t_cut = time.time() - t0; break
if t_cut is None: broken('never-reading client not disconnected within 30 s (disconnectAfterSeconds %d)' % STALL)
# now drain the bad client immediately: must end with goodbye slowClient then EOF
rest = bad.drain_all(timeout=10)
last = rest[-1] if rest else None
for _ in range(50):
    m = good.recv(0.05)
    if m is None: break
    gmsgs.append(m)
d.stop()
print('disconnected after %.1f s; bad client read %d lines after; last %r' % (t_cut, len(rest), last))
if t_cut > STALL + 10: broken('stall disconnect took %.1f s for disconnectAfterSeconds %d' % (t_cut, STALL))
if last is None or last.get('type') != 'goodbye' or last.get('reason') != 'slowClient':
    broken('never-reading client, drained right after being cut, did not get goodbye slowClient as its last line (last: %r)' % (last,))
gs = [m for m in gmsgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled')]
if any(m.get('type') == 'goodbye' for m in gmsgs): broken('good client was disconnected')
if any('merged' in m for m in gs): broken('good client got merged moves')
seqs = [m['seq'] for m in gs]
if seqs != list(range(seqs[0], seqs[0] + len(seqs))): broken('good client missing seqs')
held('stalled client cut after %.1f s with goodbye slowClient; good client got %d contiguous messages' % (t_cut, len(gs)))
