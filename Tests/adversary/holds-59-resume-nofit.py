#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Session 2 + "Subscribing..."): "a subscribe whose snapshot or resumed messages do not
# fit the client's queue limits is answered by goodbye (slowClient) alone"; resumed messages are never merged.
d = Daemon(config='queue:\n  mergeAfter: 200\n  disconnectAfter: 400\nresume: 8000\n', replay=REC01, loop=True, speed=10)
c = Client(d.sock); c.send({'id': 1, 'request': 'subscribe'})
msgs, rep = c.until(lambda m: m.get('type') == 'reply', 5)
S = rep['seq']
c.close()
time.sleep(4)   # ~1400 messages/s at 10x: several thousand behind
x = Client(d.sock); x.send({'id': 2, 'request': 'subscribe', 'resumeAfter': S})
time.sleep(1)
out = x.drain_all(10)
d.stop()
types = [m.get('type') for m in out]
print('behind by', out and max([m.get('seq', 0) for m in out]) - S, 'got', len(out), 'lines; first', types[:3], 'last', out[-1] if out else None)
replies = [m for m in out if m.get('type') == 'reply']
if not out or out[-1].get('type') != 'goodbye' or out[-1].get('reason') != 'slowClient':
    if replies and replies[0].get('resumed'):
        stream = [m for m in out if m.get('type') in ('began', 'moved', 'ended', 'cancelled')]
        if any('merged' in m for m in stream): broken('resumed messages merged')
        broken('resume of %d messages with disconnectAfter 400 was served (%d lines) instead of goodbye slowClient' % (len(stream), len(out)))
    broken('unexpected: %r' % types[:10])
if replies: broken('resume that did not fit got a reply before the goodbye (doc: goodbye alone); %d stream lines before it' % (len(out) - 2))
held('resume that does not fit: goodbye slowClient alone')
