#!/usr/bin/env python3
"""Finding 138 (low): a request line of exactly maxLineLength bytes terminated by "\r\n" is
refused with lineTooLong (and the client disconnected) when the "\r" and the "\n" arrive in
different reads; the same bytes in one write are answered. Whether a compliant client is cut
thus depends on how its writes are segmented.

docs/protocol.md, "Transport and framing": "the daemon also accepts \r\n from clients"; "A
client line may be at most maxLineLength bytes (...), not counting its \n (or \r\n)".
Exit 1 (BROKEN) while the split CRLF line is refused.
Fixed: a carriage return last in what waits is not counted until its newline comes.
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = Daemon(replay=REC03, loop=False)
def attempt(split):
    c = Client(d.sock)
    L = c.hello['maxLineLength']
    try:
        if split:
            c.sendraw(ping_of_length(L) + b'\r'); time.sleep(0.3); c.sendraw(b'\n')
        else:
            c.sendraw(ping_of_length(L) + b'\r\n')
    except OSError:
        pass
    r = c.recv() or {'type': None}
    c.close(); return L, r
L, one = attempt(False)
L, two = attempt(True)
print('maxLineLength %d; line of %d bytes + "\\r\\n" in one write -> %s' % (L, L, one))
print('same line, "\\r" and "\\n" 0.3 s apart -> %s' % two)
if one.get('type') == 'reply' and two.get('type') != 'reply':
    broken('a %d-byte line ending in \\r\\n is refused (%s) when \\r and \\n arrive in separate reads; accepted in one write' % (L, two.get('error', two)))
held('a maxLineLength line with CRLF is accepted however it is segmented')
