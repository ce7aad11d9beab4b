#!/usr/bin/env python3
"""Holds: thousands of connect / subscribe / resume / history / unsubscribe / half-close /
abrupt-close cycles, then floods of never-reading subscribers, leave the daemon's file
descriptors where they started and its RSS back within a few MB (docs/protocol.md, "Slow
clients": queue.totalBytes, malloc_trim after a burst)."""
import sys, os, time, socket, random
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

d = Daemon(config='maxClientsPerUid: 256\nhistory: 64\nhistoryPageBytes: 4096\n', speed=5)
time.sleep(2)
fd0, rss0 = d.nfds(), d.rss_kb()
random.seed(100)
REQS = [b'{"id":1,"request":"subscribe"}\n',
        b'{"id":1,"request":"subscribe","resumeAfter":%d}\n',
        b'{"id":1,"request":"history","limit":1000}\n{"id":2,"request":"history","cursor":"1-5"}\n',
        b'{"id":1,"request":"subscribe","events":["gesture","hover","moved"]}\n{"id":2,"request":"unsubscribe"}\n{"id":3,"request":"subscribe"}\n',
        b'{"id":1,"request":"live"}\n' * 20,
        b'{"id":1,"request":"subscribe"}\n' * 10,
        b'{"id":1,"request":"stats"}\n{"id":2,"request":"ping"}\n',
        b'']
open_ = []; cycles = 0; t0 = time.time()
while cycles < 4000 and time.time() - t0 < 35:
    for _ in range(10):
        s = socket.socket(socket.AF_UNIX); s.connect(d.sock); s.setblocking(False)
        r = random.choice(REQS)
        if b'%d' in r: r = r % random.randrange(1, 50000)
        try:
            s.sendall(r)
            if random.random() < 0.2: s.shutdown(socket.SHUT_WR)
        except OSError: pass
        open_.append((s, random.choice([0, 0, 256, 4096, 1 << 20])))
    for s, n in open_:
        if n:
            try: s.recv(n)
            except OSError: pass
    random.shuffle(open_)
    keep = []
    for e in open_:
        if random.random() < 0.5: e[0].close(); cycles += 1
        else: keep.append(e)
    open_ = keep
    time.sleep(0.02)
for s, _ in open_: s.close()
for rnd in range(2):
    socks = never_reading(d.sock, {'id': 1, 'request': 'subscribe'}, 150)
    time.sleep(6)
    for s in socks: s.close()
time.sleep(1)
end = time.time() + 15
while time.time() < end and d.nfds() > fd0: time.sleep(0.5)
fd1 = d.nfds()
rss1, took = rss_settles(d, rss0, 12 * 1024, 15)
if not d.alive(): broken('the daemon died: %s' % d.stderr()[-500:])
st = stats(d.sock)
if fd1 > fd0: broken('file descriptors: %d before, %d after %d cycles and the floods' % (fd0, fd1, cycles))
if rss1 > rss0 + 12 * 1024: broken('RSS %d kB before, %d kB 15 s after %d cycles and the floods' % (rss0, rss1, cycles))
if st['daemon']['clients'] != 1 or st['daemon']['queuedBytes'] != 0: broken('stats after everything closed: %r' % st['daemon'])
held('%d cycles + 2 floods of 150: fds %d -> %d, RSS %d -> %d kB' % (cycles, fd0, fd1, rss0, rss1))
