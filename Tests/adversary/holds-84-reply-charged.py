#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): what the daemon holds for a client (its queue and the
# daemon-side buffer: the rest of a write its socket did not take) is what queuedBytes reports and
# the limits judge. Before, the rest of a reply was not counted, and it kept the whole reply's
# storage: 150 clients that each asked for a history page (about 288 KB) and never read made the
# daemon 41 MB bigger while stats said queuedBytes 0 (a74d178). Counting the rest alone would
# have said ~4.5 MB: the rest (about 30 KB) kept the whole reply alive; now it is copied.
N = 150
d = Daemon(config='maxClients: 600\nmaxClientsPerUid: 600\n', replay=REC01, loop=True, speed=10)
time.sleep(15)  # the history (256 strokes) fills
before = d.rss_kb()
clients = never_reading(d.sock, {'id': 1, 'request': 'history', 'limit': 1000000}, N)
time.sleep(3)
if not d.alive(): broken('the daemon died: %s' % d.stderr()[-1000:])
during = d.rss_kb()
charged = stats(d.sock)['daemon']['queuedBytes']
for s in clients: s.close()
d.stop()
grew = (during - before) * 1024
print('%d never-reading history requesters: RSS %d -> %d kB (+%.1f MB), queuedBytes %.1f MB'
      % (N, before, during, grew / 1e6, charged / 1e6))
if grew < 4 << 20 and charged < 1 << 20:
    setup_error('the replies took too little to judge (RSS +%.1f MB, queuedBytes %d)' % (grew / 1e6, charged))
# Slack: the socket layer's own buffers and what malloc keeps of the replies' JSON, ~8 MB here.
if grew > charged + (12 << 20):
    broken('the daemon grew by %.1f MB holding the replies but charged its clients %.1f MB (queuedBytes)'
           % (grew / 1e6, charged / 1e6))
held('RSS +%.1f MB holding the replies, %.1f MB charged' % (grew / 1e6, charged / 1e6))
