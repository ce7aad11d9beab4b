#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: the idle daemon wakes once a second (a libdispatch worker thread, comm "...-qos.overcommit").
# Promise (README, "Performance / The daemon"): "Idle, with 10 clients connected: 0.0003 s of CPU in 3 s,
# and no thread of the daemon wakes at all (a test checks each thread's context switches): no timers, no
# polling. Tasks run on NIO's event loops, not libdispatch's pool, whose Linux monitor would wake the
# process every second." protocol.md (SSE): "the idle daemon still sleeps in epoll_wait".
# Idle here: no device (no --replay; this machine has no /dev/input) or a replay that has finished
# (--no-loop), 10 clients connected, 5 of them subscribed.
def switches(pid):
    out = {}
    for t in os.listdir('/proc/%d/task' % pid):
        try:
            s = open('/proc/%d/task/%s/status' % (pid, t)).read()
            name = open('/proc/%d/task/%s/comm' % (pid, t)).read().strip()
        except OSError:
            continue
        out['%s (%s)' % (t, name)] = int(re.search(r'\nvoluntary_ctxt_switches:\s+(\d+)', s).group(1)) + int(re.search(r'nonvoluntary_ctxt_switches:\s+(\d+)', s).group(1))
    return out
results = []
for label, replay in [('no device', None), ('finished replay (--no-loop)', REC03)]:
    d = Daemon(replay=replay, loop=False, speed=1)
    cs = [Client(d.sock) for _ in range(10)]
    for c in cs[:5]: c.send({'id': 1, 'request': 'subscribe'})
    time.sleep(3)
    for c in cs:
        while c.recv(0.05): pass
    a = switches(d.p.pid); time.sleep(5); b = switches(d.p.pid)
    woke = {k: b[k] - a.get(k, 0) for k in b if b[k] != a.get(k, 0)}
    print(label, 'context switches per thread in 5 s idle:', {k: b[k] - a.get(k, 0) for k in b})
    if woke: results.append((label, woke))
    d.stop()
if results:
    broken('idle daemon threads woke: %r (about once a second)' % results)
held('no thread woke in 5 s of idle')
