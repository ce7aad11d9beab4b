#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403
# Promise (protocol.md, "Slow clients"): "From queue.mergeAfter queued messages on (1024 by
# default), a new moved replaces ...", "Merging already starts at a quarter of
# disconnectAfterBytes" (1 MiB), "the limits apply to what is actually held", "A queued message
# counts as its line's bytes (newline included) plus 64 ...; the daemon-side buffer counts its
# bytes. stats' queuedBytes (the daemon's and you's) are these figures."
# Setup: four subscribers (no other client), recording 01 at 10x; each reads everything its socket
# has every 100 ms and sends `stats` on the same connection, one at a time. Everything the
# daemon held for it when it built a stats reply (queue, daemon-side buffer, kernel buffer)
# reaches it before that reply (replies are in order; only moves in the *queue* can be merged
# away, and the reply says how many messages that is), so the bytes received between sending
# stats and its reply bound what was really held.
# Observed: replies say you.queuedBytes ~1.5 MB with ~10 queued messages while under ~0.2 MB
# arrived before them, and the client's moves get merged (points dropped) though it never held
# 1 MiB or 1024 messages (its largest read is ~0.2-0.3 MB).
# Found by an adversary helper (2026-11-26) on 20d6c62, which charged what NIO held by its
# buffers' capacity: a frame's few lines in a 32 KiB batch buffer, forty of them under NIO's
# 64 KiB high-water mark. Now a write that fills less than half its buffer goes to NIO as a copy.
d = Daemon(config='', replay=REC01, loop=True, speed=10)
time.sleep(1)
R = 4
cl = []
for i in range(R):
    c = Client(d.sock); c.send({'id': 'sub', 'request': 'subscribe'}); c.s.setblocking(False)
    cl.append({'c': c, 'buf': b'', 'k': 0, 'out': None, 'since': 0, 'moves': 0, 'merged': 0, 'eof': False,
               'worst': None, 'maxqueued': 0, 'maxread': 0})
t0 = time.time()
while time.time() - t0 < 15:
    for st in cl:
        if st['eof']: continue
        c = st['c']; s = c.s
        if st['out'] is None:
            st['out'] = 'st%d' % st['k']; st['k'] += 1
            s.setblocking(True); c.send({'id': st['out'], 'request': 'stats'}); s.setblocking(False); st['since'] = 0
        got = 0
        try:
            while True:
                x = s.recv(1 << 20)
                if not x: st['eof'] = True; break
                st['buf'] += x; got += len(x)
        except BlockingIOError: pass
        except ConnectionResetError: st['eof'] = True
        st['maxread'] = max(st['maxread'], got)
        while b'\n' in st['buf']:
            l, st['buf'] = st['buf'].split(b'\n', 1); st['since'] += len(l) + 1
            m = json.loads(l); t = m.get('type')
            if t == 'moved': st['moves'] += 1; st['merged'] += m.get('merged', 0)
            if t == 'reply' and m.get('request') == 'stats':
                y = m['you']; st['maxqueued'] = max(st['maxqueued'], y['queued'])
                # only moves in the queue can be merged away: at most `queued` lines of < 1 kB
                excess = y['queuedBytes'] - st['since'] - 1024 * y['queued']
                if st['worst'] is None or excess > st['worst'][0]:
                    st['worst'] = (excess, y['queuedBytes'], st['since'], y['queued'], round(time.time() - t0, 1))
                st['out'] = None
            if t == 'goodbye': st['eof'] = True
    time.sleep(0.1)
d.stop()
bad = None
for i, st in enumerate(cl):
    if st['moves'] < 1000 or st['worst'] is None: setup_error('too little traffic: %d moves' % st['moves'])
    w = st['worst']
    print('client %d: %d stats replies; %d moves read, %d earlier moves merged into them; at most %d queued messages '
          'in a reply; largest single read %d bytes; worst: you.queuedBytes %d while %d bytes arrived before that '
          'reply (%d queued messages, t=%.1f s)' % (i, st['k'], st['moves'], st['merged'], st['maxqueued'], st['maxread'],
          w[1], w[2], w[3], w[4]))
    if w[0] > 300 * 1024 and st['merged'] > 0 and bad is None: bad = st
if bad:
    w = bad['worst']
    broken('stats reported you.queuedBytes %d (%d queued messages) for a client that received only %d bytes before '
           'that reply, i.e. it held at most that much; and %d of its %d moves were merged away although it read '
           'everything every 100 ms (largest read %d bytes; at most %d queued messages in any reply)'
           % (w[1], w[3], w[2], bad['merged'], bad['moves'], bad['maxread'], bad['maxqueued']))
held('queuedBytes never exceeded what was held by more than 300 kB (with merging)')
