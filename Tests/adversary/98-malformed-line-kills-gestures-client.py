#!/usr/bin/env python3
"""98: one line the client cannot decode (not JSON, or a gesture with a field of the wrong type)
ends the long-running `strokes gestures` (no --once) with exit status 69 — the status documented
for "a daemon without the feature gestures" — instead of dropping that connection and
reconnecting as it does when the daemon goes away. Under the user unit every such line costs a
2 s restart (Restart=on-failure), and from a terminal the client is simply gone.

docs/gestures.md, "Socket": "a lost one is re-established by the client library. A daemon without
the feature `gestures` is refused with exit status 69. `--once` stops at the daemon's goodbye or a
lost connection instead"; `strokes gestures --help`: "Reconnects when the daemon goes away".
Expected: without --once the client survives (reconnects) and acts on the next gesture.
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


d = scratch_dir('adv98-')
f = Ctl(d)
log = d + '/log'
p = start_client(d, 'every: 0ms\nrules:\n  - kind: tap\n    run: [sh, -c, "echo a$STROKES_GESTURE_ID >> %s"]\n' % log)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s): %s' % (p.poll(), client_log(p)[-300:]))
f.send(G(1))
if not wait_for(lambda: lines(log) == ['a1'], 5):
    setup_error('the first tap ran nothing: %s' % client_log(p)[-300:])
f.subs.clear()
f.send(b'{"type":"gesture","gesture":"two","kind":"tap"}\n')   # a malformed gesture line
time.sleep(1.5)
if p.poll() is not None:
    fail('one malformed line from the daemon ended strokes gestures (no --once) with exit %d: %s'
         % (p.returncode, client_log(p).strip().splitlines()[-1][:200]))
# Still running: it either kept the connection or reconnected; the next tap must run.
if not f.subs.wait(10) and not f.conns:
    fail('strokes gestures neither kept nor re-established the connection')
try:
    f.send(G(3))
except OSError:
    pass
if not wait_for(lambda: 'a3' in lines(log), 5):
    fail('after a malformed line the client runs nothing more: %s' % client_log(p)[-300:])
ok('a malformed line does not end the client; it goes on acting on gestures')
