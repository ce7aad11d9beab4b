#!/usr/bin/env python3
"""The blocking python Client keeps every stream message that arrives while it waits for a
request's reply ("stream messages that arrive before the reply are kept for the iterator") in an
unbounded deque: a server that streams and does not answer (a broken or hostile daemon, or one
pacing the reply: docs/protocol.md "Limits") grows the client's memory without limit, and
`timeout=` does not help since data keeps coming. The AsyncClient bounds the same buffer
(queue_size, 8192, then drops and resumes "rather than growing this process's memory"), the
Swift StrokeClient too (bufferSize 8192 / bufferBytes 16 MiB); the blocking Client does not.

Fake server: greets, reads the client's `ping`, never answers it, sends 200 000 small `moved`
lines (about 30 MB), then stays silent. The client (`Client.connect(path, timeout=5)`, then
`ping()`) runs in a subprocess. Correct: its memory stays bounded (under 150 MB more than at
start) or the ping fails. Broken: it holds every line (hundreds of MB)."""
import sys, os, time, socket, json, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python')
d = scratch_dir('adv108-')
line = json.dumps({"type": "moved", "seq": 2, "stroke": 1, "device": 1, "frame": 1, "slot": 0, "trackingId": 1,
                   "time": 1, "x": 1, "y": 1, "nx": 0.1, "ny": 0.1}).encode() + b'\n'
sent = [0]
def handle(c, send, stop):
    send(FAKE_HELLO)
    c.recv(1000)  # the ping: never answered
    for i in range(200):
        if stop.is_set(): return
        c.sendall(line * 1000); sent[0] += 1000
    while not stop.is_set():
        if not c.recv(100): return
FakeDaemon(d + '/s.sock', handle)
code = ("import sys; sys.path.insert(0, sys.argv[2]); from strokes_client import Client\n"
        "c = Client.connect(sys.argv[1], timeout=5)\n"
        "try:\n    c.ping(); print('pong')\nexcept Exception as e:\n    print('ping failed:', repr(e))\n")
p = subprocess.Popen([sys.executable, '-c', code, d + '/s.sock', PY], stdout=subprocess.PIPE, text=True); PROCS.append(p)
time.sleep(0.3)
start = proc_rss_kb(p.pid)
peak = start
t0 = time.time()
while time.time() - t0 < 40 and p.poll() is None:
    time.sleep(0.5)
    peak = max(peak, proc_rss_kb(p.pid))
    if sent[0] >= 200000 and time.time() - t0 > 3:
        time.sleep(1.5); peak = max(peak, proc_rss_kb(p.pid)); break
grown = (peak - start) // 1024
out = ''
if p.poll() is not None: out = p.stdout.read().strip()
if grown > 150:
    broken('the blocking Client waiting for a ping reply grew by %d MB holding %d unanswered stream lines '
           '(no bound, no error; timeout=5 was set)%s' % (grown, sent[0], (': ' + out) if out else ''))
held('client memory grew by %d MB (%s)' % (grown, out or 'still waiting'))
