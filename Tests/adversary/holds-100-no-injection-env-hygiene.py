#!/usr/bin/env python3
"""holds-100: a gesture's values reach a command only as STROKES_GESTURE_* variables
(docs/gestures.md, "Commands"): `run:` is an argument vector, executed as it is (`$VAR` in it is
those characters, nothing split or expanded); `shell:` runs /bin/sh -c (the real one, not an `sh`
earlier in PATH) where the variables expand but a device name full of shell syntax is never
evaluated; inherited STROKES_GESTURE_* are removed first (a value the gesture lacks is absent, not
stale); a NUL in a device name becomes U+FFFD; the rest of the environment is passed unchanged.
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


d = scratch_dir('adv106-')
evil = '$(touch %s/pwned1)`touch %s/pwned2`;touch %s/pwned3 \'"\n|touch %s/pwned4 \x00end' % (d, d, d, d)
f = Ctl(d, devs=[dict(FAKE_DEVICE, name=evil)])
os.mkdir(d + '/bin')
open(d + '/bin/sh', 'w').write('#!/bin/dash\ntouch %s/fake-sh-ran\n' % d); os.chmod(d + '/bin/sh', 0o755)
env = {'PATH': d + '/bin:/usr/bin:/bin', 'HOME': d, 'KEEP': 'a=b\nc', 'EMPTY': '',
       'STROKES_GESTURE_DIRECTION': 'stale', 'STROKES_GESTURE_SCALE': '9', 'STROKES_GESTURE_BOGUS': 'x'}
cfg = ('every: 0ms\nrules:\n'
       '  - kind: tap\n    shell: \'printf "%%s" "$STROKES_GESTURE_DEVICE_NAME" > %s/quoted; echo $STROKES_GESTURE_DEVICE_NAME > %s/unquoted; env -0 > %s/env\'\n'
       '  - kind: doubleTap\n    run: [/usr/bin/env, printf, "%%s|", "$STROKES_GESTURE_KIND", "$(id)", "a b"]\n') % (d, d, d)
p = start_client(d, cfg, env=env)
if not f.subs.wait(15):
    setup_error('strokes gestures did not subscribe (exit %s): %s' % (p.poll(), client_log(p)[-300:]))
f.send(G(1))
f.send(G(2, 'doubleTap'))
if not wait_for(lambda: os.path.exists(d + '/env') and os.path.getsize(d + '/env') > 0 and '|' in client_log(p), 8):
    fail('the commands did not run: %s' % client_log(p)[-400:])
time.sleep(0.3)
problems = []
pwned = [x for x in os.listdir(d) if x.startswith('pwned') or x == 'fake-sh-ran']
if pwned: problems.append('shell syntax in a device name was executed: %r' % pwned)
want_name = evil.replace('\x00', '\ufffd')
got = open(d + '/quoted', encoding='utf-8', errors='replace').read()
if got != want_name: problems.append('STROKES_GESTURE_DEVICE_NAME is %r, expected %r' % (got, want_name))
e = dict(x.split('=', 1) for x in open(d + '/env', 'rb').read().decode('utf-8', 'replace').split('\0') if '=' in x)
for k in ('STROKES_GESTURE_DIRECTION', 'STROKES_GESTURE_SCALE', 'STROKES_GESTURE_BOGUS'):
    if k in e: problems.append('inherited %s=%r reached the command of a tap' % (k, e[k]))
for k in ('KEEP', 'EMPTY', 'HOME'):
    if e.get(k) != env[k]: problems.append('%s is %r, expected %r' % (k, e.get(k), env[k]))
if e.get('STROKES_GESTURE_KIND') != 'tap' or e.get('STROKES_GESTURE_ID') != '1':
    problems.append('KIND/ID are %r/%r' % (e.get('STROKES_GESTURE_KIND'), e.get('STROKES_GESTURE_ID')))
if '$STROKES_GESTURE_KIND|$(id)|a b|' not in client_log(p):
    problems.append('run: arguments were expanded or split: %r' % client_log(p)[-200:])
if problems:
    fail('; '.join(problems))
ok('gesture values reach commands only as variables; nothing is evaluated, stale values are removed')
