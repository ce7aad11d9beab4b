#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Limits"): error messages quote at most 40 characters (Unicode code points) of what
# the client sent, escaped, with an ellipsis when cut.
d = Daemon(replay=REC03, loop=False)
c = Client(d.sock)
bad = []
for label, line in [('combining', ('e' + '\u0301' * 1000).encode()), ('ascii', b'x' * 5000), ('unknownreq', b'{"id":1,"request":"' + b'q' * 3000 + b'"}'),
                    ('emoji', ('\U0001F600' * 500).encode()), ('ctrl', b'\x01\x02\x03' * 500), ('quotes', b'"' * 1000)]:
    c.sendraw(line + b'\n'); m = c.recv(3)
    msg = m.get('message', '')
    q = re.search(r'"(.*)"', msg, re.S)
    quoted = q.group(1) if q else ''
    # un-escape the daemon's escaping approximately: count code points of the quoted text
    raw = quoted.replace('\\"', '"').replace('\\\\', '\\')
    raw = re.sub(r'\\u\{[0-9a-fA-F]+\}|\\u[0-9a-fA-F]{4}|\\[nrt]', 'E', raw)
    n = len(raw.rstrip('…'))
    print(label, len(msg), n, msg[:120])
    if n > 40: bad.append((label, n, msg[:200]))
d.stop()
if bad: broken('error messages quote more than 40 code points: %r' % bad)
held('error quotes <= 40 code points')
