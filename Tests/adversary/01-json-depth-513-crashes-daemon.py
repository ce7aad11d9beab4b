#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: a single request line of exactly 513 '[' kills the daemon (Swift trap, SIGILL).
# Promise (protocol.md "Errors"): invalidJSON "the line is not a JSON object ... The connection stays
# open unless said otherwise"; README: "every cost a local client can impose bounded";
# security.md: "long or malformed lines ... errors"; architecture/README: the request decoder is fuzzed.
# Any client allowed on the socket (or, with http on, any WebSocket peer) can stop the daemon for everyone.
d = Daemon(replay=REC03, loop=True)
other = Client(d.sock)
c = Client(d.sock)
c.sendraw(b'[' * 513 + b'\n')
m = c.recv(3)
time.sleep(0.5)
if not d.alive():
    broken('daemon died (exit %s, %s) after one client sent 513 "[" and a newline; reply %r' % (
        d.p.returncode, 'SIGILL/trap' if d.p.returncode == -4 else 'signal', m))
if m is None or m.get('error') != 'invalidJSON': broken('no invalidJSON error: %r' % (m,))
# the same depth inside an object (512 '[' after a key) traps too
c2 = Client(d.sock)
c2.sendraw(b'{"request":"ping","x":' + b'[' * 512 + b'\n')
m = c2.recv(3); time.sleep(0.5)
if not d.alive(): broken('daemon died (exit %s) after {"request":"ping","x": followed by 512 "["' % d.p.returncode)
r = other.request({'id': 1, 'request': 'ping'})
if not r or r.get('type') != 'reply': broken('daemon stopped serving others')
held('deep-bracket lines answered with invalidJSON, daemon alive')
