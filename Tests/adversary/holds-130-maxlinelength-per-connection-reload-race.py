#!/usr/bin/env python3
"""Holds 130 (Unix socket; the WebSocket side breaks under the same race: finding 133): each connection keeps the maxLineLength its hello announced, even while the
configuration is reloaded (SIGHUP) many times a second between two values (and sometimes to an
invalid one). For each of many connections (Unix socket and WebSocket): a line of exactly the
announced length is answered; one byte more gets lineTooLong (socket) / close 1009 (WebSocket).

docs/protocol.md: "The greeting's value holds for the whole connection: a reload of the daemon's
configuration changes it for connections made after it"; WebSocket: "A frame ... longer than the
greeting's maxLineLength ... is refused: close frame 1009".
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

VALUES = ["maxLineLength: 300\n", "maxLineLength: 5000\n", "maxLineLength: 77\n", "maxLineLength: 1200\n"]
d = Daemon(config=VALUES[0], replay=REC03, loop=False)
problems = []; checked = 0
stop = reload_storm(d, VALUES)
t0 = time.time(); i = 0
while time.time() - t0 < 8 and len(problems) < 5:
    i += 1
    try:
        c = Client(d.sock)
        L = c.hello['maxLineLength']
        time.sleep(0.02)  # let reloads happen after the hello
        c.sendraw(ping_of_length(L, i) + b'\n'); r1 = c.recv()
        c.sendraw(ping_of_length(L + 1, i) + b'\n'); r2 = c.recv()
        c.close()
        if (r1 or {}).get('type') != 'reply' or (r2 or {}).get('error') != 'lineTooLong':
            problems.append((L, r1, r2))
        checked += 1
    except Exception as e:
        problems.append(('exception', repr(e)))
stop()
print('checked %d socket connections under continuous reloads (some to an invalid value)' % checked)
if not d.alive(): problems.append(('daemon exited', d.p.returncode))
if problems:
    print(problems[:5]); broken('a connection did not keep its hello maxLineLength across reloads')
held('every connection enforced exactly the maxLineLength of its hello across reloads')
