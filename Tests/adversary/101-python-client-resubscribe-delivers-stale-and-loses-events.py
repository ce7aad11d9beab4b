#!/usr/bin/env python3
"""The python client's second `subscribe()` on the same connection (docs: "`subscribe` again
replaces the subscription (and sends a new snapshot)"; the client README: "subscribe() yields a
Snapshot ..., then stroke ... events"; "never a message twice, never one skipped silently")
first yields the *previous* subscription's stream messages that were still unread (kept in the
client's pending queue while it waited for the reply), before its own Snapshot, whatever filter
was asked for now; and with `resume_after`, those stale messages advance the client's position,
so the resumed messages they skip over are dropped as "duplicates": lost, no Gap.

Checked against the real daemon (recording 01, looped, 2x), blocking Client and AsyncClient:
  A. subscribe(events=[began,ended,cancelled]); break; sleep 1 s; subscribe(events=[began,ended,
     cancelled]) again: nothing may come before the new Snapshot.
  B. subscribe(events=[began,ended,cancelled]) up to seq S; sleep 1 s; subscribe(resume_after=S)
     (all events): every seq in S+1..max must arrive (a fast reader: nothing merged)."""
import sys, os, time, asyncio
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, AsyncClient, Snapshot, Moved, Gap

d = Daemon(speed=2)
time.sleep(0.5)
problems = []
FILT = ['began', 'ended', 'cancelled']

# A. blocking
cl = Client.connect(d.sock, timeout=20)
it = cl.subscribe(events=FILT)
first = next(it)
if not isinstance(first, Snapshot): setup_error('first event %r' % (first,))
next(it)
time.sleep(1.5)
before = []
for ev in cl.subscribe(events=FILT):
    if isinstance(ev, Snapshot): break
    before.append(ev)
    if len(before) > 5000: break
if before:
    problems.append('A (Client): the second subscribe yielded %d events before its Snapshot (%s, first seq %s)'
                    % (len(before), sorted({type(e).__name__ for e in before}), getattr(before[0], 'seq', None)))
cl.close()

def check_b(seqs, merged, last, who):
    if not seqs: problems.append('B (%s): nothing after the resume' % who); return
    missing = sorted(set(range(last + 1, max(seqs) + 1)) - set(seqs))
    if missing and not merged:
        problems.append('B (%s): subscribe(resume_after=%d) silently skipped %d sequence numbers (%s ...), no Gap, '
                        'nothing merged' % (who, last, len(missing), missing[:6]))

# B. blocking
cl = Client.connect(d.sock, timeout=20)
it = cl.subscribe(events=FILT)
last = next(it).seq
last = next(it).seq
time.sleep(1.5)
seqs, merged, gaps = [], 0, 0
for ev in cl.subscribe(resume_after=last):
    if isinstance(ev, (Gap, Snapshot)): gaps += 1; break
    seqs.append(ev.seq); merged += (ev.merged or 0) if isinstance(ev, Moved) else 0
    if len(seqs) >= 600: break
cl.close()
if not gaps: check_b(seqs, merged, last, 'Client')

# A and B, asyncio
async def amain():
    cl = await AsyncClient.connect(d.sock)
    it = cl.subscribe(events=FILT)
    await it.__anext__(); await it.__anext__()
    await it.aclose()
    await asyncio.sleep(1.5)
    before = []
    async for ev in cl.subscribe(events=FILT):
        if isinstance(ev, Snapshot): break
        before.append(ev)
        if len(before) > 5000: break
    if before:
        problems.append('A (AsyncClient): the second subscribe yielded %d events before its Snapshot' % len(before))
    await cl.close()
    cl = await AsyncClient.connect(d.sock)
    it = cl.subscribe(events=FILT)
    await it.__anext__()
    last = (await it.__anext__()).seq
    await it.aclose()
    await asyncio.sleep(1.5)
    seqs, merged, gaps = [], 0, 0
    async for ev in cl.subscribe(resume_after=last):
        if isinstance(ev, (Gap, Snapshot)): gaps += 1; break
        seqs.append(ev.seq); merged += (ev.merged or 0) if isinstance(ev, Moved) else 0
        if len(seqs) >= 600: break
    await cl.close()
    if not gaps: check_b(seqs, merged, last, 'AsyncClient')
asyncio.run(asyncio.wait_for(amain(), 40))

if problems: broken('; '.join(problems))
held('a second subscribe starts with its Snapshot, and a resume misses nothing')
