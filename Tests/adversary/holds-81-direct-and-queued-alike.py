#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients", "subscribe"; performance.md "Sixth round"): a client that
# keeps up gets each frame straight from the frame in one send, one that lags gets it through its
# queue, merged; both must see the same stream, each through its own filter. With a merge threshold
# smaller than a frame (mergeAfter: 3: frames of 3 or more lines take the queue even for a reader
# that keeps up), a steady reader subscribed to began/ended only and a bursty reader of everything,
# on the same daemon: the steady one gets no other type; every line they both got is the same but
# for "merged"; the bursty one loses no began/ended/cancelled and its seq accounting holds; nobody
# is disconnected.
d = Daemon(config='queue:\n  mergeAfter: 3\n  disconnectAfter: 100000\n', replay=REC01, loop=True, speed=3)
steady = Client(d.sock); steady.send({'id': 1, 'request': 'subscribe', 'events': ['began', 'ended']})
bursty = Client(d.sock); bursty.send({'id': 1, 'request': 'subscribe'})
a, b = [], []
t0 = time.time()
while time.time() - t0 < 16:
    # The steady reader reads all the time; the bursty one for 0.3 s in every 2 s.
    m = steady.recv(0.01)
    if m is not None: a.append(m)
    if (time.time() - t0) % 2.0 < 0.3:
        m = bursty.recv(0.01)
        if m is not None: b.append(m)
for c, msgs in ((steady, a), (bursty, b)):
    c.send({'id': 2, 'request': 'unsubscribe'})
    more, rep = c.until(lambda m: m.get('type') in ('reply', 'error') and m.get('id') == 2, 30)
    msgs += more  # ends with the reply
if not d.alive(): broken('daemon died: ' + d.stderr()[-2000:])
d.stop()
for name, msgs in (('steady', a), ('bursty', b)):
    if any(m.get('type') == 'goodbye' for m in msgs): broken('%s reader disconnected' % name)
    snap = [m for m in msgs if m.get('type') == 'snapshot'][0]
    err = lifecycle_check(msgs, [s['stroke'] for s in snap['strokes']])
    if err: broken('%s: %s' % (name, err))
leaked = [m for m in a if m.get('type') not in ('began', 'ended', 'reply', 'snapshot')]
if leaked: broken('the began/ended subscriber got %d other lines, e.g. %r' % (len(leaked), leaked[0]))
stream_b = [m for m in b if m.get('type') in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
snap_b, rep_b = [m for m in b if m.get('type') == 'snapshot'][0], b[-1]
merged_b = sum(m.get('merged', 0) for m in stream_b)
if merged_b == 0: setup_error('the bursty reader was never merged: the queue path was not exercised')
if rep_b['seq'] - snap_b['seq'] != len(stream_b) + merged_b:
    broken('bursty seq accounting off: %d vs %d' % (rep_b['seq'] - snap_b['seq'], len(stream_b) + merged_b))
by_seq = {m['seq']: m for m in stream_b}
compared = 0
for m in (m for m in a if m.get('type') in ('began', 'ended')):
    other = by_seq.get(m['seq'])
    if other is None: continue  # after the bursty one's unsubscribe
    if {k: v for k, v in other.items() if k != 'merged'} != m: broken('seq %d differs: steady %r, bursty %r' % (m['seq'], m, other))
    compared += 1
if compared < 50: setup_error('only %d lines to compare' % compared)
held('steady %d began/ended, bursty %d lines (merged %d), %d compared line for line' % (
    sum(1 for m in a if m.get('type') in ('began', 'ended')), len(stream_b), merged_b, compared))
