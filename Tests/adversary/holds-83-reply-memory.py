#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients"): the memory clients held goes back to the system once they
# are gone, including the rest of a reply their socket did not take (held by the socket layer,
# not the queue). Found by an adversary: 250 clients that each asked for a history page (about
# 288 KB) and never read took the daemon from 24 to 88 MB with queuedBytes 0, and it kept 84 MB
# after they all closed. Since the rest of a reply the socket did not take is copied (holds-84), the
# replies take ~14 MB, not ~64: the bar for "back" is 4 MB above where it was, not 12. 400 clients
# (not 250), so that what they hold (8 MB and more) stands clear of the RSS's own swings (CI once saw
# 8.0 MB with 250).
d = Daemon(config='maxClients: 600\nmaxClientsPerUid: 600\n', replay=REC01, loop=True, speed=10)
time.sleep(15)  # the history (256 strokes) fills
before = d.rss_kb()
clients = never_reading(d.sock, {'id': 1, 'request': 'history', 'limit': 1000000}, 400)
time.sleep(3)
peak = d.rss_kb()
if not d.alive(): broken('the daemon died: %s' % d.stderr()[-1000:])
if peak < before + 8 * 1024:
    setup_error('the replies took too little memory to judge (%d kB before, %d kB holding them)' % (before, peak))
for s in clients: s.close()
now, after = rss_settles(d, before, 4 * 1024)
d.stop()
print('RSS %d kB before, %d kB holding the replies, %d kB %.1f s after the clients closed' % (before, peak, now, after))
if now > before + 4 * 1024:
    broken('RSS still %d kB 15 s after the clients closed (%d kB before, %d kB holding the replies)' % (now, before, peak))
held('RSS back to %d kB (%d before, %d holding the replies) %.1f s after the clients closed' % (now, before, peak, after))
