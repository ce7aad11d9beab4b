#!/usr/bin/env python3
"""Holds (docs/protocol.md "Sequence numbers", "Slow clients", "Stroke events" guarantee,
"Gesture events"): four subscribers of recording 01 at 10x reading at different rates (all,
64 KiB / 50 ms, 4 KiB / 20 ms, 256 B / 100 ms) for 25 s each get, after `unsubscribe` and its
reply: a complete lifecycle for every stroke (snapshot strokes included), never a `began`/`ended`
dropped, and `last seq - snapshot seq = messages + sum(merged)` exactly. A gesture subscriber of
recording 03 gets every continuous gesture's `begin` closed by exactly one `end`/`cancel`, the
open ones cancelled before `goodbye` at shutdown. And on a daemon with small limits
(mergeAfter 64, disconnectAfter 256, disconnectAfterSeconds 3) a never-reading subscriber is cut
with `goodbye` `slowClient`, counted in stats."""
import sys, os, time, socket, json, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

problems = []
d = Daemon(speed=10)
results = {}
def reader(name, chunk, interval, dur):
    c = Client(d.sock)
    c.send({'id': 1, 'request': 'subscribe'})
    c.s.setblocking(False)
    end = time.time() + dur; eof = False
    while time.time() < end:
        try:
            x = c.s.recv(chunk)
            if not x: eof = True; break
            c.buf += x
        except BlockingIOError: pass
        except OSError: eof = True; break
        time.sleep(interval)
    c.s.setblocking(True); c.s.settimeout(15)
    if not eof:
        try: c.send({'id': 2, 'request': 'unsubscribe'})
        except OSError: eof = True
    lines = []
    while True:
        if b'\n' in c.buf:
            l, c.buf = c.buf.split(b'\n', 1); m = json.loads(l); lines.append(m)
            if (m.get('type') == 'reply' and m.get('id') == 2) or m.get('type') == 'goodbye': break
            continue
        try: x = c.s.recv(1 << 20)
        except OSError: break
        if not x: break
        c.buf += x
    c.close(); results[name] = lines
ths = [threading.Thread(target=reader, args=a) for a in
       [('fast', 1 << 20, 0.001, 25), ('64k/50ms', 65536, 0.05, 25), ('4k/20ms', 4096, 0.02, 25), ('256/100ms', 256, 0.1, 25)]]
for t in ths: t.start()
for t in ths: t.join()
d.stop()
for name, msgs in results.items():
    snap = next((m for m in msgs if m.get('type') == 'snapshot'), None)
    if snap is None: problems.append('%s: no snapshot' % name); continue
    if msgs[-1].get('type') != 'reply': problems.append('%s: ended with %r' % (name, msgs[-1])); continue
    err = lifecycle_check(msgs, [s['stroke'] for s in snap['strokes']])
    if err: problems.append('%s: %s' % (name, err))
    stream = [m for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved')]
    if not stream: problems.append('%s: no stream' % name); continue
    missing = stream[-1]['seq'] - snap['seq'] - len(stream) - sum(m.get('merged', 0) for m in stream)
    if missing: problems.append('%s: %d sequence numbers neither received nor merged' % (name, missing))
    began = sum(1 for m in stream if m['type'] == 'began'); done = sum(1 for m in stream if m['type'] in ('ended', 'cancelled'))
    if began < 100: problems.append('%s: only %d strokes' % (name, began))

# gestures
g = Daemon(replay=REC03, speed=5)
c = Client(g.sock)
c.send({'id': 1, 'request': 'subscribe', 'events': ['began', 'ended', 'cancelled', 'gesture']})
msgs, _ = c.until(lambda m: False, 8)
g.p.send_signal(signal.SIGTERM)
msgs += c.drain_all(10)
state = {}; nbegin = 0
for m in msgs:
    if m.get('type') != 'gesture' or m['kind'] in ('tap', 'doubleTap'): continue
    st = state.get(m['gesture']); ph = m['phase']
    if ph == 'begin':
        nbegin += 1
        if st is not None: problems.append('gesture %d: begin twice' % m['gesture'])
        state[m['gesture']] = 'live'
    elif st != 'live': problems.append('gesture %d: %s in state %s' % (m['gesture'], ph, st))
    elif ph in ('end', 'cancel'): state[m['gesture']] = 'done'
if nbegin < 5: problems.append('only %d gestures' % nbegin)
if [k for k, v in state.items() if v != 'done']: problems.append('gestures left open at shutdown: %s' % [k for k, v in state.items() if v != 'done'])
if not msgs or msgs[-1].get('type') != 'goodbye': problems.append('gesture subscriber: no goodbye at shutdown')
g.stop()

# limits fire
l = Daemon(config='queue:\n  mergeAfter: 64\n  disconnectAfter: 256\n  disconnectAfterSeconds: 3\n', speed=5)
s = socket.socket(socket.AF_UNIX); s.connect(l.sock)
s.sendall(b'{"id":1,"request":"subscribe"}\n')
time.sleep(6)
s.settimeout(5); buf = b''
while True:
    try: x = s.recv(65536)
    except OSError: break
    if not x: break
    buf += x
if not buf.endswith(b'{"type":"goodbye","reason":"slowClient"}\n'): problems.append('never-reader not ended by goodbye slowClient: %r' % buf[-120:])
if stats(l.sock)['daemon']['slowClientsDisconnected'] < 1: problems.append('slowClientsDisconnected not counted')
if problems: broken('; '.join(problems))
held('slow readers complete and accounted, gestures paired, limits fire')
