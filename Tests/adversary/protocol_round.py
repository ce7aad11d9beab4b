"""What the protocol round's scripts (107-114, holds-105 to holds-109, holds-117 to holds-127)
share: a daemon serving a fixture on its own socket (`Daemon`), a client connection speaking the
line protocol (`Conn`), written from docs/protocol.md alone by the tester who wrote them, and
their verdicts (`check`, `FAIL`), and what several of them read or make (`PK`, `cut_fixture`,
`lifecycle_errors`). Each script does `from protocol_round import *`."""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX, scratch_dir  # noqa: E402 (argv[1] or the debug build; the fixtures)

SCR = scratch_dir('advproto-')

__all__ = ['Daemon', 'Conn', 'FAIL', 'check', 'BIN', 'FIX', 'SCR', 'PK', 'cut_fixture', 'lifecycle_errors']


class Daemon:
    """Starts `strokes daemon --replay` on a unique socket; always stopped by stop()."""

    def __init__(self, fixture, loop=True, speed=1, config=None, extra=()):
        self.dir = tempfile.mkdtemp(prefix='t', dir=SCR)
        self.sock = os.path.join(self.dir, 's.sock')
        args = [BIN, 'daemon', '--replay', os.path.join(FIX, fixture), '--socket', self.sock,
                '--speed', str(speed), '--loop' if loop else '--no-loop']
        if config is not None:
            cp = os.path.join(self.dir, 'c.yaml')
            with open(cp, 'w') as f:
                f.write(config)
            args += ['--config', cp]
        args += list(extra)
        self.log = open(os.path.join(self.dir, 'log'), 'w')
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while time.time() < deadline:
            if os.path.exists(self.sock):
                try:
                    s = socket.socket(socket.AF_UNIX)
                    s.connect(self.sock)
                    s.close()
                    break
                except OSError:
                    pass
            if self.proc.poll() is not None:
                raise RuntimeError('daemon exited %s' % self.proc.returncode)
            time.sleep(0.05)
        time.sleep(0.2)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


class Conn:
    def __init__(self, path, rcvbuf=None, hello=True):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.connect(path)
        self.buf = b''
        self.pending = []
        self.n = 0
        self.hello = self.read(5) if hello else None

    def line(self, timeout=5):
        end = time.monotonic() + timeout
        while b'\n' not in self.buf:
            left = end - time.monotonic()
            if left <= 0:
                return None
            r, _, _ = select.select([self.s], [], [], left)
            if not r:
                return None
            try:
                d = self.s.recv(65536)
            except ConnectionResetError:
                d = b''
            if not d:
                return b''
            self.buf += d
        l, self.buf = self.buf.split(b'\n', 1)
        return l

    def read(self, timeout=5):
        l = self.line(timeout)
        if l is None:
            return None
        if l == b'':
            return {'type': 'EOF'}
        return json.loads(l)

    def send(self, obj):
        self.s.sendall((obj if isinstance(obj, bytes) else json.dumps(obj).encode() + b'\n'))

    def req(self, name, timeout=10, **kw):
        self.n += 1
        rid = 'r%d' % self.n
        o = {'id': rid, 'request': name}
        o.update(kw)
        self.send(o)
        end = time.monotonic() + timeout
        while True:
            m = self.read(max(0.01, end - time.monotonic()))
            if m is None:
                raise RuntimeError('no reply to %s' % name)
            if m.get('id') == rid and m['type'] in ('reply', 'error'):
                return m
            if m['type'] in ('goodbye', 'EOF'):
                return m
            self.pending.append(m)

    def next(self, timeout=5):
        if self.pending:
            return self.pending.pop(0)
        return self.read(timeout)

    def drain(self, seconds, stop=None):
        out = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            m = self.next(max(0.01, end - time.monotonic()))
            if m is None:
                continue
            out.append(m)
            if m['type'] in ('goodbye', 'EOF') or (stop and stop(m)):
                break
        return out

    def close(self):
        self.s.close()


FAIL = []


def check(cond, what):
    print(('ok   ' if cond else 'FAIL ') + what)
    if not cond:
        FAIL.append(what)
    return cond


def PK(m):
    """A stream message's point fields: what is left without the envelope and the stroke's ids."""
    return {k: v for k, v in m.items() if k not in ('type', 'seq', 'stroke', 'device', 'frame',
            'slot', 'trackingId', 'flags', 'merged', 'reason')}


def cut_fixture(fixture, events, tag):
    """A copy of an evemu fixture's header and first `events` events, in SCR; its path."""
    out, ev = [], 0
    for line in open(os.path.join(FIX, fixture)).read().splitlines(True):
        if line.startswith('E:'):
            ev += 1
            if ev > events:
                break
        out.append(line)
    cut = os.path.join(SCR, 'cut-%s-%d.evemu' % (tag, os.getpid()))
    with open(cut, 'w') as f:
        f.writelines(out)
    return cut


def lifecycle_errors(stream, live, done=None, reasons=None):
    """Counts stream messages out of a stroke's lifecycle (a `began` for a stroke live or done, a
    `moved`/`ended`/`cancelled` for one not live), starting from `live` (the snapshot's strokes).
    Updates `live` and `done`; adds each cancel reason to `reasons` when given."""
    done = set() if done is None else done
    err = 0
    for m in stream:
        t, sid = m['type'], m.get('stroke')
        if t == 'began':
            err += sid in live or sid in done
            live.add(sid)
        elif t in ('moved', 'ended', 'cancelled'):
            err += sid not in live
            if t != 'moved':
                live.discard(sid)
                done.add(sid)
            if t == 'cancelled' and reasons is not None:
                reasons.add(m.get('reason'))
    return err
