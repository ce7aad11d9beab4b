#!/usr/bin/env python3
"""A slow client (a merged move of each stroke waiting in its queue) unsubscribes and subscribes
again: the next move of each stroke replaces the waiting one and comes after the new snapshot,
with a `merged` count that includes every move numbered before the unsubscribe reply and the
snapshot. So (a) the moves numbered up to the `unsubscribe` reply's `seq` are neither received
nor counted before that reply, and (b) after the new snapshot, Σ merged counts far more numbers
than there are. The same happens with a bare second `subscribe` (no `unsubscribe`), and with a
second `subscribe` carrying `resumeAfter` (the merged counts then include moves the resumed block
delivered).

docs/protocol.md, "Sequence numbers": "A subscriber without filters receives every number either
as a message or counted in a later `moved`'s `merged` ...; so `last seq - snapshot seq = messages
received + Σ merged` whenever no merged move is pending (a merged `moved` is queued after messages
numbered above the moves it stands for: to check the sum at some point, `unsubscribe` and read up
to its reply ...)". "Requests": "`subscribe` again replaces the subscription (and sends a new
snapshot)". "Slow clients": a merged move "stands for `n` earlier moves of that stroke".
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

# Two fingers down for 40 s, both moving every 5 ms: each stroke always has a move queued.
r = GestureScreenRecording()
r.frame(0, [('d', s, 1000 + 3000 * s, 1000) for s in range(2)])
for i in range(1, 8000):
    r.frame(i * 5, [('m', s, 1000 + 3000 * s + (i % 500) * 10, 1000 + (i % 2)) for s in range(2)])
r.frame(40000, [('u', s) for s in range(2)])
rec = os.path.join(scratch_dir('adv67-'), 'drag.evemu'); open(rec, 'w').write(r.text())

STREAM = ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')
d = Daemon(replay=rec, loop=False, speed=4, config='queue:\n  mergeAfter: 2\n')
c = Client(d.sock)
c.send({'id': 1, 'request': 'subscribe'})
time.sleep(3.5)            # read nothing: the socket fills, the daemon queues and merges moves
c.send({'id': 2, 'request': 'unsubscribe'})
c.send({'id': 3, 'request': 'subscribe'})   # a new subscription: a new snapshot
time.sleep(1.0)
c.send({'id': 4, 'request': 'unsubscribe'})
msgs, end = c.until(lambda m: m.get('id') == 4, 25)
if end is None or end.get('type') != 'reply':
    setup_error('no final unsubscribe reply: %r' % (msgs[-3:],))
ix = {m.get('id'): i for i, m in enumerate(msgs) if m.get('type') in ('reply', 'error')}
if msgs[0].get('id') != 1 or msgs[1].get('type') != 'snapshot' or msgs[ix[3] + 1].get('type') != 'snapshot':
    setup_error('unexpected shape: %r' % ([(m.get('type'), m.get('id')) for m in msgs if m.get('type') not in STREAM],))

# (a) the first subscription, up to its unsubscribe reply
snap1 = msgs[1]['seq']
s1 = [m for m in msgs[2:ix[2]] if m.get('type') in STREAM]
u1 = msgs[ix[2]]['seq']
acc1 = len(s1) + sum(m.get('merged', 0) for m in s1)
# (b) the second subscription, from its snapshot up to the final unsubscribe reply
snap2 = msgs[ix[3] + 1]['seq']
s2 = [m for m in msgs[ix[3] + 2:ix[4]] if m.get('type') in STREAM]
last2 = s2[-1]['seq'] if s2 else snap2
acc2 = len(s2) + sum(m.get('merged', 0) for m in s2)
print('first subscription: snapshot %d, unsubscribe reply seq %d, received %d + merged %d = %d numbers'
      % (snap1, u1, len(s1), acc1 - len(s1), acc1))
print('second subscription: snapshot %d, last seq %d, received %d + merged %d = %d numbers (last - snapshot = %d)'
      % (snap2, last2, len(s2), acc2 - len(s2), acc2, last2 - snap2))
problems = []
if acc1 != u1 - snap1:
    problems.append('(a) up to the unsubscribe reply (seq %d) the first subscription accounts for %d numbers, '
                    'not %d: the rest come after the next snapshot' % (u1, acc1, u1 - snap1))
if acc2 != last2 - snap2:
    ex = next((m for m in s2 if m.get('merged', 0) > m['seq'] - snap2 - 1), {})
    problems.append('(b) after the new snapshot (seq %d), last - snapshot = %d but received + sum merged = %d; '
                    'e.g. %s' % (snap2, last2 - snap2, acc2, json.dumps(ex)[:140]))
if problems:
    broken('; '.join(problems) + ' (protocol.md "Sequence numbers": last seq - snapshot seq = messages received + '
           'sum merged once unsubscribed and read up to the reply)')
held('unsubscribe + subscribe on a slow connection: both subscriptions account for every number')
