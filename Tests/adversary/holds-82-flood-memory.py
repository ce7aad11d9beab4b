#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): once the queues dropped or closed add up to 1 MiB, the
# daemon gives the freed memory back to the system 3 s later: after a flood of clients that never
# read, its resident size returns to what it was. (Before: 292 MB during such a flood, 284 MB kept
# for good after every client had gone.)
d = Daemon(config='maxClients: 600\nmaxClientsPerUid: 600\n', replay=REC01, loop=True, speed=0)
time.sleep(2)
before = d.rss_kb()
flood = never_reading(d.sock, {'id': 1, 'request': 'subscribe'}, 300)
time.sleep(8)
peak = d.rss_kb()
if not d.alive(): broken('the daemon died during the flood: %s' % d.stderr()[-1000:])
if peak < before + 32 * 1024:
    setup_error('the flood took too little memory to judge (%d kB before, %d kB during)' % (before, peak))
for s in flood: s.close()
now, after = rss_settles(d, before, 16 * 1024)
st = stats(d.sock)
d.stop()
print('RSS %d kB before, %d kB during the flood, %d kB %.1f s after it; stats %r' % (before, peak, now, after, st['daemon']))
if st['daemon']['clients'] != 1: broken('%d clients still counted after the flood closed' % st['daemon']['clients'])
if now > before + 16 * 1024:
    broken('RSS still %d kB 15 s after the flood closed (%d kB before it, %d kB during)' % (now, before, peak))
held('RSS back to %d kB (%d before, %d during) %.1f s after the flood closed' % (now, before, peak, after))
