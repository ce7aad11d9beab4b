#!/usr/bin/env python3
"""97: `strokes gestures` started with standard output and error closed (a launcher's `>&- 2>&-`,
a double-forking wrapper) puts its own event-loop descriptors at 1 and 2: every command it starts
then inherits the client's epoll instance as its standard output, and the client's first log line
(a command that exits non-zero) goes into its own eventfd and the client exits 74.

docs/gestures.md, "Commands": a command "inherits no other descriptor of the client's"; "a command
that exits non-zero ... is logged ... and the client goes on". Expected: the child's 0-2 are
/dev/null or closed, never one of the client's internal descriptors, and the client keeps running.
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


d = scratch_dir('adv97-')
f = Ctl(d)
cfg = ('every: 0ms\nrules:\n'
       '  - kind: tap\n    run: [sleep, "1"]\n'
       '  - kind: doubleTap\n    run: [sh, -c, "exit 3"]\n')


def close_stdout_stderr():
    os.close(1); os.close(2)


p = start_client(d, cfg, stdin=subprocess.DEVNULL, stdout=None, stderr=None, preexec_fn=close_stdout_stderr)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s)' % p.poll())
time.sleep(0.2)
f.send(G(1))
if not wait_for(lambda: children(p.pid), 5):
    setup_error('the tap rule started no command')
time.sleep(0.2)
problems = []
for k in children(p.pid):
    for fd in os.listdir('/proc/%d/fd' % k):
        try: target = os.readlink('/proc/%d/fd/%s' % (k, fd))
        except OSError: continue
        if target.startswith(('anon_inode:', 'socket:')):
            problems.append('the command (pid %d) holds fd %s -> %s, one of the client\'s own descriptors' % (k, fd, target))
wait_for(lambda: not children(p.pid), 5)   # sleep 1 ends by itself (status 0: nothing logged)
try:
    f.send(G(2, 'doubleTap'))   # a command that exits 3: the client logs it
except OSError:
    pass
time.sleep(1.0)
if p.poll() is not None:
    problems.append('the client exited with status %s after logging a failed command (it must go on)' % p.returncode)
if problems:
    fail('; '.join(problems))
ok('commands started with stdout/stderr closed inherit none of the client\'s descriptors, and the client goes on')
