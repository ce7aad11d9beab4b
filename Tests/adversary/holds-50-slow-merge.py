#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients" / "Sequence numbers"): a lagging client gets moves merged
# ("merged": n), never loses began/ended/cancelled, and
# last seq - snapshot seq = messages received + sum(merged) after unsubscribe.
d = Daemon(replay=REC01, loop=True, speed=10)
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe'})
time.sleep(6)           # do not read: queue grows past mergeAfter (1024)
msgs = []
t_end = time.time() + 4
while time.time() < t_end:
    m = c.recv(5)
    if m is None: break
    msgs.append(m)
c.send({'id': 2, 'request': 'unsubscribe'})
more, rep = c.until(lambda m: m.get('type') in ('reply', 'error') and m.get('id') == 2, 20)
msgs += more
d.stop()
types = [m.get('type') for m in msgs]
if 'goodbye' in types: broken('client was disconnected: %r' % [m for m in msgs if m.get('type') == 'goodbye'])
if rep is None or rep.get('type') != 'reply': broken('no unsubscribe reply: %r' % rep)
sub = [m for m in msgs if m.get('type') == 'reply' and m.get('id') == 1]
snap = [m for m in msgs if m.get('type') == 'snapshot']
if not sub or not snap: broken('no subscribe reply/snapshot')
snap = snap[0]
stream = [m for m in msgs if 'seq' in m and m.get('type') in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
merged = sum(m.get('merged', 0) for m in stream)
nmerged = sum(1 for m in stream if 'merged' in m)
err = lifecycle_check(msgs, [s['stroke'] for s in snap['strokes']])
if err: broken('lifecycle broken for a slow client: ' + err)
seqs = [m['seq'] for m in stream]
if len(set(seqs)) != len(seqs): broken('a seq was delivered twice')
if nmerged == 0: broken('no merged moves although the client lagged 6 s at 10x (queue > mergeAfter expected)')
lhs = rep['seq'] - snap['seq']; rhs = len(stream) + merged
print('snapshot seq', snap['seq'], 'last seq', rep['seq'], 'received', len(stream), 'sum merged', merged, 'merged msgs', nmerged)
if lhs != rhs:
    broken('seq accounting: last seq - snapshot seq = %d but received + sum(merged) = %d' % (lhs, rhs))
held('merged %d moves in %d messages; lifecycle and seq accounting hold' % (merged, nmerged))
