"""The gesture-actions round's fake daemon and helpers (scripts 97, 98, holds-99 to holds-101):
`strokes gestures` against a daemon whose gesture stream the script writes."""
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
