#!/usr/bin/env python3
"""When the messages to resume do not fit the client's queue limits, the daemon answers the
`subscribe` with `goodbye` (`slowClient`) alone (docs/protocol.md, Session 2 and "Subscribing,
snapshots and resuming": "what does not fit the client's queue limits ... disconnects it"). The
python client then reconnects and sends the *same* `resumeAfter` again, forever: the backlog
only grows, so every attempt is cut the same way. The subscription delivers nothing, yields no
Gap and (default Backoff, attempts=None) does not end: a live-lock, one reconnection every 2 s,
until the daemon has produced `resume` more messages and can answer `gapTooOld` (minutes at a
human pace with a large `resume`; forever on an idle device).
The README promises that what cannot be resumed is reported as a Gap followed by a fresh
Snapshot; the daemon can still give a snapshot (a subscribe without resumeAfter), so the client
could recover.

Reached whenever `resume` holds more than a slow client's queue may (`queue.disconnectAfter`
or `disconnectAfterBytes`), e.g. a tightened `disconnectAfter` below the default `resume` 4096,
and a subscriber that fell that far behind (here: resume_after = an early sequence number).

Daemon: recording 01 looped at 2x (a few hundred messages a second), `resume: 65536`, `queue.mergeAfter: 16`, `disconnectAfter: 64`. After 5 s
(> 150 stream messages), Client.subscribe(resume_after=<seq from an early hello>) and
AsyncClient the same. Correct: within 25 s the subscription yields something (a Gap and
Snapshot, or the resumed stream) or raises. Broken: nothing at all, the daemon's
slowClientsDisconnected counting the attempts."""
import sys, os, time, threading, asyncio
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, AsyncClient

d = Daemon(config='resume: 65536\nqueue:\n  mergeAfter: 16\n  disconnectAfter: 64\n', speed=2)
c = Client.connect(d.sock, timeout=10)
early = c.hello.seq
c.close()
time.sleep(5)
if stats(d.sock)['daemon']['seq'] - early < 150: setup_error('the replay produced too few messages: %d' % (stats(d.sock)['daemon']['seq'] - early))
res = {}
def run_blocking():
    try:
        cl = Client.connect(d.sock)
        for ev in cl.subscribe(resume_after=early):
            res['blocking'] = 'yielded %s' % type(ev).__name__
            return
    except Exception as e:
        res['blocking'] = 'raised %r' % e
t = threading.Thread(target=run_blocking, daemon=True); t.start()
async def amain():
    cl = await AsyncClient.connect(d.sock)
    async for ev in cl.subscribe(resume_after=early):
        return 'yielded %s' % type(ev).__name__
def run_async():
    try:
        res['async'] = asyncio.run(asyncio.wait_for(amain(), 25))
    except asyncio.TimeoutError:
        pass
    except Exception as e:
        res['async'] = 'raised %r' % e
t2 = threading.Thread(target=run_async, daemon=True); t2.start()
t.join(25); t2.join(5)
st = stats(d.sock)['daemon']
problems = [who for who in ('blocking', 'async') if who not in res]
if problems:
    broken('%s subscribe(resume_after=%d) delivered nothing in 25 s: each attempt is answered by goodbye slowClient '
           'and retried with the same resumeAfter (daemon slowClientsDisconnected=%d, seq now %d)'
           % (' and '.join({'blocking': 'Client', 'async': 'AsyncClient'}[w] for w in problems), early,
              st['slowClientsDisconnected'], st['seq']))
held('the subscriptions went on: %r' % res)
