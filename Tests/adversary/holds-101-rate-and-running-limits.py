#!/usr/bin/env python3
"""holds-101: the limits of docs/gestures.md, "Limits" and "Rules", against a flood of gestures:
- the default global `maxPerSecond: 10`: 40 taps at once run exactly 10 commands;
- a rule's rate limit skips the gesture, which is not handed to the next rule, and a skipped
  gesture counts against no limit (the global limit still has room for another rule);
- `maxRunning`: while that many commands run, a gesture is skipped and logged; a reload (SIGHUP)
  does not forget the commands still running; once they end, commands start again.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *


class Ctl:
    """A fake daemon (docs/protocol.md) at DIR/f.sock: hello, the `devices` reply (`devs`), the
    `subscribe` reply and an empty snapshot; then the script sends on the last subscribed
    connection with `send` (a dict: one JSON line; bytes: raw)."""
    def __init__(self, d, devs=None):
        self.path = d + '/f.sock'; self.conns = []; self.subs = threading.Event()
        devs = devs or [FAKE_DEVICE]
        def handle(c, send, stop):
            def ans(r, send):
                if r['request'] == 'devices':
                    send({"type": "reply", "id": r.get("id"), "request": "devices", "devices": devs}); return True
                if r['request'] != 'subscribe': return False
                send({"type": "reply", "id": r.get("id"), "request": "subscribe", "seq": 1})
                send({"type": "snapshot", "seq": 1, "strokes": []})
                self.conns.append((c, send)); self.subs.set(); return True
            fake_requests(c, send, stop, ans)
        self.fake = FakeDaemon(self.path, handle)
    def send(self, m):
        c, send = self.conns[-1]
        if isinstance(m, bytes): c.sendall(m)
        else: send(m)


def G(i, kind='tap', phase='end', **kw):
    g = {"type": "gesture", "gesture": i, "kind": kind, "phase": phase, "device": 1, "time": 1000 + i,
         "fingers": 1, "strokes": [1], "x": 1, "y": 1, "nx": 0.001, "ny": 0.001, "duration": 5000}
    g.update(kw); return g


def start_client(d, cfg_text, extra=(), env=None, **kw):
    cfg = d + '/g.yaml'; open(cfg, 'w').write(cfg_text)
    errf = open(d + '/client.out', 'wb+')
    p = subprocess.Popen([BIN, 'gestures', '--config', cfg, '--socket', d + '/f.sock'] + list(extra),
                         stdout=kw.pop('stdout', errf), stderr=kw.pop('stderr', errf), env=env, **kw)
    PROCS.append(p); p.errf = errf; return p


def client_log(p):
    p.errf.flush(); p.errf.seek(0); return p.errf.read().decode(errors='replace')


def lines(path):
    try: return open(path).read().split()
    except OSError: return []


def wait_for(pred, timeout=5):
    end = time.time() + timeout
    while time.time() < end:
        if pred(): return True
        time.sleep(0.05)
    return pred()


def children(pid):
    out = []
    try:
        for t in os.listdir('/proc/%d/task' % pid):
            out += [int(x) for x in open('/proc/%d/task/%s/children' % (pid, t)).read().split()]
    except OSError:
        pass
    return out


def kill_children(pid):
    for k in children(pid):
        try: os.kill(k, signal.SIGKILL)
        except OSError: pass


def _kill_all_children():
    for p in PROCS:
        kill_children(p.pid)


def fail(msg):
    _kill_all_children(); broken(msg)


def ok(msg):
    _kill_all_children(); held(msg)


problems = []

# 1. The default global limit.
d = scratch_dir('adv107a-'); f = Ctl(d); log = d + '/log'
p = start_client(d, 'rules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n' % log)
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
f.send(b''.join(json.dumps(G(i)).encode() + b'\n' for i in range(1, 41)))
time.sleep(0.9)
n = len(lines(log))
if n != 10: problems.append('40 taps at once ran %d commands under the default maxPerSecond 10' % n)
p.kill(); p.wait()

# 2. A rule's limit: skipped, not handed on; skipped gestures use none of the global limit.
d = scratch_dir('adv107b-'); f = Ctl(d); log = d + '/log'
p = start_client(d, ('maxPerSecond: 3\nrules:\n'
                     '  - name: a\n    kind: tap\n    every: 30s\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n'
                     '  - name: fallback\n    kind: tap\n    run: [sh, -c, "echo f$STROKES_GESTURE_ID >> %s"]\n'
                     '  - name: b\n    kind: swipe\n    run: [sh, -c, "echo b$STROKES_GESTURE_ID >> %s"]\n') % (log, log, log))
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
for i in range(1, 6): f.send(G(i))
for i in range(6, 10): f.send(G(i, 'swipe'))
time.sleep(1.0)
got = sorted(lines(log))
if got != ['a1', 'b6', 'b7']:
    problems.append('rule limit / global limit: ran %r, expected a1 (taps 2-5 skipped, not handed to "fallback") and b6, b7 (global 3/s)' % got)
p.kill(); p.wait()

# 3. maxRunning, across a reload.
d = scratch_dir('adv107c-'); f = Ctl(d); log = d + '/log'
cfg = 'every: 0ms\nmaxRunning: 2\nrules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s; exec sleep 2"]\n' % log
p = start_client(d, cfg)
if not f.subs.wait(15): setup_error('no subscription: %s' % client_log(p)[-300:])
for i in (1, 2, 3): f.send(G(i))
wait_for(lambda: len(lines(log)) >= 2, 3); time.sleep(0.3)
open(d + '/g.yaml', 'w').write(cfg + '# edited\n'); p.send_signal(signal.SIGHUP); time.sleep(0.4)
f.send(G(4)); time.sleep(0.5)
if sorted(lines(log)) != ['a1', 'a2']:
    problems.append('maxRunning 2: ran %r while two commands ran (a reload in between)' % sorted(lines(log)))
if 'still running' not in client_log(p): problems.append('a gesture skipped for maxRunning was not logged')
wait_for(lambda: not children(p.pid), 5)
f.send(G(5)); wait_for(lambda: 'a5' in lines(log), 3)
if 'a5' not in lines(log): problems.append('after the commands ended, a new tap ran nothing')
if problems:
    fail('; '.join(problems))
ok('global, per-rule and maxRunning limits hold under a flood and across a reload')
