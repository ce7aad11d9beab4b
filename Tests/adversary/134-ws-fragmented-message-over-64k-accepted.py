#!/usr/bin/env python3
"""Finding 134 (low, docs vs binary): protocol.md said a WebSocket message in fragments is joined
"at most 64 KiB and 1024 fragments in all"; the binary joins up to the greeting's
maxLineLength. protocol.md now says so. Checked: with maxLineLength 200000, a 100 032-byte
request in 4 fragments is answered, and one of more than 200 000 bytes in fragments gets close
1009. Exit 0 while the binary does what protocol.md says.
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

PORT = free_port()
d = Daemon(config='maxLineLength: 200000\n', replay=REC03, loop=False, http='127.0.0.1:%d' % PORT)
w = WS(PORT)
op, hello = w.recv(); L = json.loads(hello)['maxLineLength']
def send_in_fragments(msg, size):
    parts = [msg[i:i + size] for i in range(0, len(msg), size)]
    for i, part in enumerate(parts):
        try: w.send(1 if i == 0 else 0, part, fin=i == len(parts) - 1)
        except (BrokenPipeError, ConnectionResetError): break
    return len(parts)
msg = ('{"id":1,"request":"ping","p":"%s"}' % ('x' * 100000)).encode()
n = send_in_fragments(msg, 25000)
op, pl = w.recv()
print('hello maxLineLength %d; %d-byte message in %d fragments -> opcode %d %r' % (L, len(msg), n, op, pl[:80]))
if not (op == 1 and json.loads(pl).get('type') == 'reply'):
    broken('a %d-byte fragmented message within maxLineLength %d was not answered' % (len(msg), L))
big = ('{"id":2,"request":"ping","p":"%s"}' % ('x' * (L + 10))).encode()
n = send_in_fragments(big, 60000)
op, pl = w.recv()
print('%d-byte message in %d fragments -> opcode %d %r' % (len(big), n, op, pl[:2]))
if op != 8 or pl[:2] != b'\x03\xf1':
    broken('a %d-byte fragmented message past maxLineLength %d did not get close 1009' % (len(big), L))
held('fragments are joined up to maxLineLength (%d), past it close 1009, as protocol.md says' % L)
