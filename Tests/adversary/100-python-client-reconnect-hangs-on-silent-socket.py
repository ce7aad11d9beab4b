#!/usr/bin/env python3
"""The python client (clients/python) hangs forever when its subscription reconnects to a socket
that accepts the connection but never greets (a stopped daemon whose connections the kernel
completes from the listen backlog, docs/protocol.md "Session" 1), even with
Backoff(attempts=2): docs/README say a reconnection *fails* unless the daemon answers its
subscribe and the subscription raises ConnectionLost after `attempts` failed reconnections; the
protocol's bundled clients give up on a socket that sends no hello within 5 s.

Scenario (fake server on a Unix socket): the first connection is a normal session (hello, the
subscribe's reply, an empty snapshot) that ends with goodbye(shutdown); every later connection is
accepted and never written to. Correct: the subscription ends with an error within 30 s.
Broken: still blocked after 30 s (blocking Client and AsyncClient are both checked)."""
import sys, os, time, socket, threading, asyncio
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, AsyncClient, Backoff

def server(path):
    conns = [0]
    def handle(c, send, stop):
        conns[0] += 1
        if conns[0] == 1:
            def ans(r, send):
                if r['request'] != 'subscribe': return False
                send({"type": "reply", "id": r["id"], "request": "subscribe", "seq": 1})
                send({"type": "snapshot", "seq": 1, "strokes": []})
                send({"type": "goodbye", "reason": "shutdown"})
                c.shutdown(socket.SHUT_RDWR)
                return True
            fake_requests(c, send, stop, ans)
        else:  # a stopped daemon: accepted, never greets
            while not stop.is_set():
                if not c.recv(100): return
    FakeDaemon(path, handle)
    return conns

LIMIT = 30
d = scratch_dir('adv106-')
conns = server(d + '/blocking.sock')
res = {}
def run_blocking():
    try:
        cl = Client.connect(d + '/blocking.sock')
        for ev in cl.subscribe(backoff=Backoff(attempts=2, maximum=0.2)):
            pass
        res['blocking'] = 'iterator ended'
    except Exception as e:
        res['blocking'] = repr(e)
t = threading.Thread(target=run_blocking, daemon=True); t.start()

conns2 = server(d + '/async.sock')
async def run_async():
    cl = await AsyncClient.connect(d + '/async.sock')
    async for ev in cl.subscribe(backoff=Backoff(attempts=2, maximum=0.2)):
        pass
def run_async_thread():
    try:
        asyncio.run(asyncio.wait_for(run_async(), LIMIT + 5))
        res['async'] = 'iterator ended'
    except asyncio.TimeoutError:
        res['async'] = None
    except Exception as e:
        res['async'] = repr(e)
t2 = threading.Thread(target=run_async_thread, daemon=True); t2.start()
t.join(LIMIT); t2.join(8)  # the asyncio side times out itself at LIMIT + 5 s
problems = []
if 'blocking' not in res:
    problems.append('Client.subscribe(backoff=Backoff(attempts=2)) still blocked after %d s on a reconnection '
                    'that got no hello (%d connections made)' % (LIMIT, conns[0]))
if res.get('async') is None:
    problems.append('AsyncClient.subscribe(backoff=Backoff(attempts=2)) still blocked after %d s on a reconnection '
                    'that got no hello (%d connections made)' % (LIMIT, conns2[0]))
if problems:
    broken('; '.join(problems))
held('the subscriptions gave up: %r' % res)
