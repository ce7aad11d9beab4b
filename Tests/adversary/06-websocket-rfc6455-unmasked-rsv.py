#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING (minor): the WebSocket endpoint accepts frames RFC 6455 requires it to refuse: unmasked client
# frames (§5.1: "a server MUST close the connection upon receiving a frame that is not masked") and frames
# with RSV bits set without a negotiated extension (§5.2: "MUST Fail the WebSocket Connection").
# Promise (protocol.md "HTTP, SSE and WebSocket"): "`GET /ws` | WebSocket (RFC 6455)"; "Broken
# fragmentation gets 1002 (protocol error)" (it does; the other protocol errors do not).
PORT = 17590 + os.getpid() % 100
d = Daemon(replay=REC03, loop=True, http='127.0.0.1:%d' % PORT)
time.sleep(0.5)
res = {}
for label, kw in [('unmasked', {'mask': False}), ('rsv1', {'rsv': 4})]:
    w = WS(PORT); w.recv_json()
    w.send(1, b'{"id":1,"request":"ping"}', **kw)
    try:
        op, p = w.recv()
        res[label] = 'close %d' % struct.unpack('>H', p[:2])[0] if op == 8 else 'answered: ' + p.decode()[:60]
    except (EOFError, OSError) as e:
        res[label] = 'closed'
print(res)
bad = {k: v for k, v in res.items() if v.startswith('answered')}
if bad: broken('protocol-violating frames were served instead of failing the connection: %r' % bad)
held('RFC 6455 framing errors refused')
