#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "Slow clients", security.md table): replies are never dropped; a client that does not
# fit the queue limits is disconnected; what one client can cost the daemon is bounded
# (disconnectAfter 8192 messages / disconnectAfterBytes 4 MiB). A client that pipelines requests and never
# reads the replies must be cut, and the daemon's memory must stay bounded.
d = Daemon(replay=REC01, loop=True, speed=4)
time.sleep(3)
rss0 = d.rss_kb()
results = {}
for label, req in [('ping', b'{"id":1,"request":"ping"}\n'), ('history', b'{"id":1,"request":"history"}\n'), ('devices', b'{"id":1,"request":"devices"}\n')]:
    c = socket.socket(socket.AF_UNIX); c.connect(d.sock); c.setblocking(False)
    sent = 0; t0 = time.time(); maxrss = 0; cut = False
    chunk = req * 200
    while time.time() - t0 < 20:
        try:
            n = c.send(chunk); sent += n
        except BlockingIOError:
            time.sleep(0.01)
        except (BrokenPipeError, ConnectionResetError):
            cut = True; break
        maxrss = max(maxrss, d.rss_kb())
        if not d.alive(): broken('daemon died during %s flood' % label)
    st = stats(d.sock)['daemon']
    results[label] = (sent // len(req), cut, maxrss, st['queuedBytes'], st['slowClientsDisconnected'])
    print(label, 'requests sent %d, cut %s, max RSS %d kB, queuedBytes now %d, slowClientsDisconnected %d' % results[label])
    c.close()
    time.sleep(1)
d.stop()
for label, (n, cut, maxrss, qb, sc) in results.items():
    if maxrss > rss0 + 150000:
        broken('%s flood (never reading replies): daemon RSS grew from %d to %d kB' % (label, rss0, maxrss))
held('request floods bounded: %r' % results)
