#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Subscribing, snapshots and resuming"): resumeAfter S sends every stream message
# after S as it was (never merged), resumed:true, no snapshot; S not one of its sequence numbers
# (beyond the last, negative) or too old -> resumed:false, reason gapTooOld, and a snapshot.
d = Daemon(config='resume: 4096\nqueue:\n  mergeAfter: 16\n', replay=REC01, loop=True, speed=4)
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
msgs = []
t0 = time.time()
while time.time() - t0 < 3:
    m = c.recv(1)
    if m: msgs.append(m)
c.close()
last = max(m['seq'] for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled'))
time.sleep(2)   # ~2 s at 4x: a few hundred messages missed (> mergeAfter 16)
r = Client(d.sock); r.send({'id': 2, 'request': 'subscribe', 'resumeAfter': last})
got, rep = r.until(lambda m: m.get('type') == 'reply' and m.get('id') == 2, 5)
if rep is None or rep.get('resumed') is not True: broken('resume of a recent seq not resumed: %r' % rep)
more = []
t0 = time.time()
while time.time() - t0 < 2:
    m = r.recv(0.5)
    if m: more.append(m)
if any(m.get('type') == 'snapshot' for m in more): broken('snapshot sent on a successful resume')
# the resumed part: seq in (last, reply seq]; after it the live stream may be merged (mergeAfter 16)
stream = [m for m in more if 'seq' in m and m.get('type') not in ('reply', 'snapshot') and m['seq'] <= rep['seq']]
seqs = [m['seq'] for m in stream]
print('resumed after', last, 'reply seq', rep['seq'], 'resumed messages', len(stream))
if seqs and seqs[-1] != rep['seq']: broken('resumed part ends at %d, reply seq %d' % (seqs[-1], rep['seq']))
if not seqs or seqs[0] != last + 1: broken('resumed stream starts at %r, expected %d' % (seqs[:1], last + 1))
if seqs != list(range(last + 1, last + 1 + len(seqs))): broken('resumed stream has gaps')
if any('merged' in m for m in stream): broken('resumed messages were merged')
bad = {}
for label, S in [('beyond', 10**12), ('negative', -5), ('zero?', 0)]:
    x = Client(d.sock); x.send({'id': 3, 'request': 'subscribe', 'resumeAfter': S})
    got, rep = x.until(lambda m: m.get('type') in ('reply', 'error') and m.get('id') == 3, 5)
    nxt = x.recv(2)
    bad[label] = (rep, nxt and nxt.get('type'))
    x.close()
print(bad)
d.stop()
rep, nxt = bad['beyond']
if not rep or rep.get('resumed') is not False or rep.get('reason') != 'gapTooOld' or nxt != 'snapshot':
    broken('resumeAfter beyond the last seq (not one of its sequence numbers) gave %r then %r, expected resumed:false gapTooOld + snapshot' % (rep, nxt))
rep, nxt = bad['negative']
if rep.get('type') == 'reply' and (rep.get('resumed') is not False or nxt != 'snapshot'):
    broken('resumeAfter -5 gave %r then %r' % (rep, nxt))
held('resume exact and unmerged; hostile resumeAfter -> gapTooOld + snapshot')
