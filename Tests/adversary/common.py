"""What every script here shares: the binary and fixtures, verdicts (`broken`, `held`,
`setup_error`, each ending the process with its exit code), and `Daemon`, a daemon of its own on
a socket under /tmp, killed when the script ends. Each script does `from common import *`."""
import os, sys, json, socket, subprocess, time, tempfile, select, signal, struct, re, shutil

# Absolute: some scripts run the binary from another working directory.
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../.build/debug/strokes'))
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../ReplayTests/Fixtures')
REC01 = FIX + '/01-wacom-dth2242-touchscreen-10finger.evemu'
REC03 = FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.evemu'

_DAEMONS = []
# Processes a script started itself, and its scratch directories (`scratch_dir`): killed and
# removed when it ends, as the daemons are.
PROCS = []
_SCRATCH = []
def scratch_dir(prefix):
    d = tempfile.mkdtemp(prefix=prefix, dir='/tmp'); _SCRATCH.append(d); return d
def _cleanup():
    for d in _DAEMONS:
        try:
            if d.p.poll() is None:
                d.p.kill(); d.p.wait(5)
        except Exception:
            pass
    for p in PROCS:
        try:
            if p.poll() is None:
                p.kill(); p.wait(5)
        except Exception:
            pass
    for d in _SCRATCH:
        shutil.rmtree(d, ignore_errors=True)

def broken(msg):
    print('BROKEN: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(1)

def held(msg):
    print('HELD: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(0)

def setup_error(msg):
    print('SETUP ERROR: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(2)

import atexit
atexit.register(_cleanup)

class Daemon:
    """A daemon of its own: its socket is `sock` (default: a fresh directory's s.sock), its
    configuration `config` written to `self.cfg`, its stderr kept (`stderr()`). With `wait`, the
    script stops with a setup error unless it accepts a connection within 15 s; without it, the
    script asks (`accepting`, `exit_code`). `umask`: the daemon's, set before it starts."""
    def __init__(self, config='', replay=REC01, loop=True, speed=None, extra=(), wait=True, http=None,
                 sock=None, umask=None):
        self.dir = tempfile.mkdtemp(prefix='advd-', dir='/tmp')
        _SCRATCH.append(self.dir)
        self.sock = sock or os.path.join(self.dir, 's.sock')
        self.cfg = os.path.join(self.dir, 'c.yaml')
        with open(self.cfg, 'w') as f:
            f.write(config)
        args = [BIN, 'daemon', '--socket', self.sock, '--config', self.cfg]
        if replay:
            args += ['--replay', replay]
            args += ['--loop'] if loop else ['--no-loop']
            if speed is not None: args += ['--speed', str(speed)]
        if http: args += ['--http', http]
        args += list(extra)
        self.args = args
        self.errf = open(os.path.join(self.dir, 'stderr'), 'wb+')
        self.p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.errf,
                                  preexec_fn=None if umask is None else (lambda: os.umask(umask)))
        _DAEMONS.append(self)
        if wait:
            c = self.accepting(15)
            if c is None:
                if self.p.poll() is not None:
                    setup_error('daemon exited %s: %s' % (self.p.returncode, self.stderr()[-2000:]))
                setup_error('daemon did not come up')
            c.close()
            # The HTTP listener starts after the clients' socket: wait for it too (a debug build
            # under load answered the socket before the port was bound: connection refused).
            if http and not http.startswith('/'):
                host, _, port = http.rpartition(':')
                deadline = time.time() + 15
                while True:
                    try:
                        socket.create_connection((host.strip('[]'), int(port)), timeout=1).close()
                        break
                    except OSError:
                        if time.time() > deadline: setup_error('the HTTP listener %s did not come up' % http)
                        time.sleep(0.05)
    def accepting(self, timeout=15, interval=0.05):
        """The first connection to `sock` that the daemon accepts within `timeout` s (a connected
        socket, the caller's to close), or None if it exited first or never accepted."""
        end = time.time() + timeout
        while time.time() < end:
            if self.p.poll() is not None: return None
            c = socket.socket(socket.AF_UNIX)
            try:
                c.connect(self.sock); return c
            except OSError:
                c.close()
            time.sleep(interval)
        return None
    def exit_code(self, timeout=15):
        """Its exit status once it exits within `timeout` s; None if it is still running."""
        try: return self.p.wait(timeout)
        except subprocess.TimeoutExpired: return None
    def stderr(self):
        self.errf.flush(); self.errf.seek(0); return self.errf.read().decode('utf-8', 'replace')
    def alive(self):
        return self.p.poll() is None
    def stop(self, timeout=10):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try: self.p.wait(timeout)
            except subprocess.TimeoutExpired:
                self.p.kill(); self.p.wait()
        return self.p.returncode
    def nfds(self):
        try: return len(os.listdir('/proc/%d/fd' % self.p.pid))
        except OSError: return -1
    def rss_kb(self):
        try:
            for l in open('/proc/%d/status' % self.p.pid):
                if l.startswith('VmRSS'): return int(l.split()[1])
        except OSError: return -1

class Client:
    def __init__(self, path, hello=True, timeout=10):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.connect(path)
        self.buf = b''
        self.eof = False
        self.hello = None
        if hello:
            self.hello = self.recv(timeout)
            if self.hello is None or self.hello.get('type') != 'hello':
                raise RuntimeError('no hello: %r' % (self.hello,))
    def send(self, obj):
        if isinstance(obj, (dict, list)): obj = json.dumps(obj)
        if isinstance(obj, str): obj = obj.encode()
        if not obj.endswith(b'\n'): obj += b'\n'
        self.s.sendall(obj)
    def sendraw(self, b):
        self.s.sendall(b)
    def _fill(self, timeout):
        r, _, _ = select.select([self.s], [], [], max(0, timeout))
        if not r: return False
        try:
            d = self.s.recv(1 << 20)
        except (ConnectionResetError, BrokenPipeError):
            d = b''
        if not d:
            self.eof = True; return False
        self.buf += d; return True
    def recv_raw_line(self, timeout=10):
        end = time.time() + timeout
        while b'\n' not in self.buf:
            if self.eof: return None
            if not self._fill(end - time.time()):
                if self.eof or time.time() >= end: return None
        line, self.buf = self.buf.split(b'\n', 1)
        return line
    def recv(self, timeout=10):
        l = self.recv_raw_line(timeout)
        if l is None: return None
        try:
            return json.loads(l.decode('utf-8'))
        except Exception as e:
            raise RuntimeError('daemon sent non-JSON line %r: %s' % (l[:200], e))
    def until(self, pred, timeout=10):
        end = time.time() + timeout
        out = []
        while time.time() < end:
            m = self.recv(end - time.time())
            if m is None: return out, None
            out.append(m)
            if pred(m): return out, m
        return out, None
    def request(self, obj, timeout=10):
        self.send(obj)
        rid = obj.get('id') if isinstance(obj, dict) else None
        msgs, m = self.until(lambda m: m.get('type') in ('reply', 'error', 'goodbye') and (m.get('type') == 'goodbye' or m.get('id') == rid), timeout)
        return m
    def drain_all(self, timeout=10, idle=None):
        """read everything until EOF (or timeout)"""
        out = []
        end = time.time() + timeout
        while time.time() < end:
            l = self.recv_raw_line(min(end - time.time(), idle) if idle else end - time.time())
            if l is None: break
            out.append(json.loads(l))
        return out
    def closed(self, timeout=5):
        end = time.time() + timeout
        while time.time() < end:
            if self.eof: return True
            self.buf = b''
            self._fill(end - time.time())
        return self.eof
    def close(self):
        try: self.s.close()
        except OSError: pass

def never_reading(path, request, count):
    """`count` connections that each send `request` (a dict) and never read: the sockets."""
    socks = []
    for _ in range(count):
        s = socket.socket(socket.AF_UNIX); s.connect(path)
        s.sendall((json.dumps(request) + '\n').encode())
        socks.append(s)
    return socks

def rss_settles(d, before, slack_kb, timeout=15):
    """Polls the daemon's RSS every 0.5 s until it is within `slack_kb` of `before` or `timeout`
    seconds pass: (the last RSS in kB, the seconds it took)."""
    t0 = time.time(); now = d.rss_kb()
    while time.time() - t0 < timeout:
        time.sleep(0.5)
        now = d.rss_kb()
        if now <= before + slack_kb: break
    return now, time.time() - t0

def stats(path):
    # A probe, not the promise under test: a debug build under CI's load may greet late.
    c = Client(path, timeout=30)
    r = c.request({'id': 's', 'request': 'stats'}, timeout=30)
    c.close()
    return r

def lifecycle_check(msgs, snapshot_strokes=()):
    """returns error string or None: every event for a stroke after its end, moved without began etc."""
    state = {}
    for sid in snapshot_strokes: state[sid] = 'live'
    for m in msgs:
        t = m.get('type')
        if t not in ('began', 'moved', 'ended', 'cancelled'): continue
        s = m['stroke']
        st = state.get(s)
        if t == 'began':
            if st is not None: return 'began twice / after end for stroke %s (seq %s)' % (s, m.get('seq'))
            state[s] = 'live'
        else:
            if st != 'live': return '%s for stroke %s in state %s (seq %s)' % (t, s, st, m.get('seq'))
            if t in ('ended', 'cancelled'): state[s] = 'done'
    return None


# A WebSocket client (RFC 6455) that can also send what a client must not: unmasked frames, RSV bits.
import base64, hashlib  # noqa: E401
class WS:
    def __init__(self, port, path='/ws', origin=None, host=None):
        self.s = socket.create_connection(('127.0.0.1', port)); self.s.settimeout(10)
        key = base64.b64encode(os.urandom(16)).decode()
        req = 'GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n' % (path, host or '127.0.0.1:%d' % port, key)
        if origin: req += 'Origin: %s\r\n' % origin
        self.s.sendall((req + '\r\n').encode())
        self.buf = b''
        while b'\r\n\r\n' not in self.buf:
            x = self.s.recv(4096)
            if not x: break
            self.buf += x
        head, _, self.buf = self.buf.partition(b'\r\n\r\n')
        self.status = int(head.split(b' ')[1]) if head else 0
        self.head = head
    def frame(self, opcode, payload, fin=True, mask=True, rsv=0):
        b0 = (0x80 if fin else 0) | rsv << 4 | opcode
        n = len(payload)
        if n < 126: hdr = bytes([b0, (0x80 if mask else 0) | n])
        elif n < 65536: hdr = bytes([b0, (0x80 if mask else 0) | 126]) + struct.pack('>H', n)
        else: hdr = bytes([b0, (0x80 if mask else 0) | 127]) + struct.pack('>Q', n)
        if mask:
            k = os.urandom(4); payload = bytes(c ^ k[i % 4] for i, c in enumerate(payload)); hdr += k
        return hdr + payload
    def send(self, opcode, payload, **kw):
        self.s.sendall(self.frame(opcode, payload, **kw))
    def _need(self, n):
        while len(self.buf) < n:
            x = self.s.recv(65536)
            if not x: raise EOFError
            self.buf += x
    def recv(self):
        self._need(2)
        b0, b1 = self.buf[0], self.buf[1]; n = b1 & 0x7f; off = 2
        if n == 126: self._need(4); n = struct.unpack('>H', self.buf[2:4])[0]; off = 4
        elif n == 127: self._need(10); n = struct.unpack('>Q', self.buf[2:10])[0]; off = 10
        self._need(off + n)
        p = self.buf[off:off + n]; self.buf = self.buf[off + n:]
        return b0 & 0x0f, p
    def recv_json(self):
        while True:
            op, p = self.recv()
            if op == 1: return json.loads(p)
            if op == 8: return {'_close': struct.unpack('>H', p[:2])[0] if len(p) >= 2 else None}


def make_recording(path, times):
    """03's header, then one finger: down at times[0], moved at times[1], lifted at times[2]"""
    src = open(REC03, 'rb').read().split(b'\n')
    i = next(k for k, l in enumerate(src) if l.startswith(b'E:'))
    def ev(t, ty, code, val): return b'E: %s %04x %04x %d' % (t, ty, code, val)
    t0, t1, t2 = times
    body = [ev(t0, 3, 0x2f, 0), ev(t0, 3, 0x39, 5), ev(t0, 3, 0x35, 100), ev(t0, 3, 0x36, 100), ev(t0, 1, 0x14a, 1), ev(t0, 0, 0, 0),
            ev(t1, 3, 0x35, 101), ev(t1, 0, 0, 0),
            ev(t2, 3, 0x39, -1), ev(t2, 1, 0x14a, 0), ev(t2, 0, 0, 0)]
    open(path, 'wb').write(b'\n'.join(src[:i] + body) + b'\n')

# A fake daemon: a Unix socket server speaking protocol.md, for attacking the CLI clients
# (`watch`, `render --socket`, `gestures`) with what a broken or hostile server may send.
import threading  # noqa: E402
FAKE_HELLO = {"type": "hello", "protocol": 1, "daemon": "strokes 0.2.0", "instance": "00112233aabbccdd", "seq": 1,
              "features": ["subscribe", "filters", "snapshot", "resume", "merge", "devices", "live", "history",
                           "ping", "stats", "hover", "gestures"], "maxLineLength": 65536}
FAKE_DEVICE = {"device": 1, "name": "Fake Touch", "path": "/dev/input/event9", "kind": "touchscreen", "slots": 10,
               "bustype": 3, "vendor": 1, "product": 2, "x": {"min": 0, "max": 1000, "resolution": 10},
               "y": {"min": 0, "max": 1000, "resolution": 10}, "axes": [], "semiMT": False}

class FakeDaemon:
    """Listens at `path`; each connection is handled by `handle(conn, send, stop)` on a thread of
    its own (`send(obj)` writes one JSON line, under a lock). Stopped at exit."""
    def __init__(self, path, handle):
        self.stop = threading.Event()
        self.srv = socket.socket(socket.AF_UNIX); self.srv.bind(path); self.srv.listen(8)
        def serve():
            while not self.stop.is_set():
                try: c, _ = self.srv.accept()
                except OSError: return
                lock = threading.Lock()
                def send(o, c=c, lock=lock):
                    with lock: c.sendall(json.dumps(o).encode() + b"\n")
                def run(c=c, send=send):
                    try: handle(c, send, self.stop)
                    except OSError: pass
                    finally: c.close()
                threading.Thread(target=run, daemon=True).start()
        threading.Thread(target=serve, daemon=True).start()
        _FAKES.append(self)
    def close(self):
        self.stop.set()
        try: self.srv.close()
        except OSError: pass
_FAKES = []
atexit.register(lambda: [f.close() for f in _FAKES])

def fake_requests(c, send, stop, answer=None):
    """Greets, then answers each request line: `answer(request, send)` first (True: answered),
    else `devices` with FAKE_DEVICE, `subscribe` with a reply and an empty snapshot, anything
    else with a bare reply."""
    send(FAKE_HELLO)
    buf = b""
    while not stop.is_set():
        d = c.recv(65536)
        if not d: return
        buf += d
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            r = json.loads(line); q = r["request"]
            if answer and answer(r, send): continue
            if q == "devices": send({"type": "reply", "id": r.get("id"), "request": "devices", "devices": [FAKE_DEVICE]})
            elif q == "subscribe":
                send({"type": "reply", "id": r.get("id"), "request": "subscribe", "seq": 1})
                send({"type": "snapshot", "seq": 1, "strokes": []})
            else: send({"type": "reply", "id": r.get("id"), "request": q})

def render_against_history(prefix, page):
    """`strokes render --socket` against a fake daemon whose `history` replies are
    `page(n)` (n counts from 1): (pages answered, still running after 20 s, RSS in MB then,
    exit status, standard error)."""
    d = scratch_dir(prefix)
    pages = [0]
    def answer(r, send):
        if r["request"] != "history": return False
        pages[0] += 1
        send(dict({"type": "reply", "id": r.get("id"), "request": "history"}, **page(pages[0])))
        return True
    FakeDaemon(d + '/fake.sock', lambda c, send, stop: fake_requests(c, send, stop, answer))
    p = subprocess.Popen([BIN, 'render', '--socket', d + '/fake.sock', '-o', d + '/out.svg'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    PROCS.append(p)
    t0 = time.time()
    while time.time() - t0 < 20 and p.poll() is None: time.sleep(0.5)
    running = p.poll() is None
    rss = proc_rss_kb(p.pid) // 1024 if running else 0
    p.kill(); p.wait(timeout=5)
    return pages[0], running, rss, p.returncode, p.stderr.read().decode(errors='replace')[:200]

def history_stroke(i, points=50):
    """An ended stroke `i` of `points` points, as a history page carries it."""
    return {"stroke": i, "device": 1, "slot": 0, "trackingId": 1, "state": "ended",
            "points": [{"time": i * 100 + j, "x": j, "y": j, "nx": j / 1000, "ny": j / 1000} for j in range(points)]}

def proc_rss_kb(pid):
    """VmRSS of a process, in kB (0 once it is gone)."""
    try:
        for line in open('/proc/%d/status' % pid):
            if line.startswith('VmRSS:'): return int(line.split()[1])
    except OSError:
        pass
    return 0

def on_subscribe(stream):
    """A FakeDaemon handler: answers requests as `fake_requests` does and, at `subscribe`, replies
    with an empty snapshot and runs `stream(c, send, stop)` on a thread of its own."""
    def handle(c, send, stop):
        def answer(r, send):
            if r["request"] != "subscribe": return False
            send({"type": "reply", "id": r.get("id"), "request": "subscribe", "seq": 1})
            send({"type": "snapshot", "seq": 1, "strokes": []})
            threading.Thread(target=stream, args=(c, send, stop), daemon=True).start()
            return True
        fake_requests(c, send, stop, answer)
    return handle

def fake_stream(messages, delay=0.5, after=0.5):
    """A FakeDaemon handler: answers requests as `fake_requests` does and, once subscribed, sends
    `messages` after `delay` seconds, then `goodbye` after `after` more, and hangs up."""
    def stream(c, send, stop):
        try:
            time.sleep(delay)
            for m in messages: send(m)
            time.sleep(after)
            send({"type": "goodbye", "reason": "shutdown"}); c.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    return on_subscribe(stream)

def crafted_header(name, axes, keys=(0x14a,), props=(0x01,), bus=0x18, ev_bits=0x0b):
    """An evemu header for a crafted device: `axes` {code: (min, max) or (min, max, resolution)},
    key codes, `INPUT_PROP_*` bits (DIRECT by default), the bus type and the EV_* bitmask."""
    ab, kb, pb = [0] * 8, [0] * 96, [0] * 8
    for c in axes: ab[c // 8] |= 1 << (c % 8)
    for k in keys: kb[k // 8] |= 1 << (k % 8)
    for p in props: pb[p // 8] |= 1 << (p % 8)
    lines = ['# EVEMU 1.3', 'N: ' + name, 'I: %04x 0000 0000 0000' % bus, 'P: ' + ' '.join('%02x' % b for b in pb),
             'B: 00 %02x 00 00 00 00 00 00 00' % ev_bits]
    lines += ['B: 01 ' + ' '.join('%02x' % b for b in kb[i:i + 8]) for i in range(0, 96, 8)]
    lines.append('B: 03 ' + ' '.join('%02x' % b for b in ab))
    for c, a in sorted(axes.items()):
        lines.append('A: %02x %d %d 0 0 %d' % (c, a[0], a[1], a[2] if len(a) > 2 else 0))
    return '\n'.join(lines) + '\n'

def evemu_event(t, ty, code, val):
    """An evemu event line at `t` microseconds."""
    return 'E: %d.%06d %04x %04x %d' % (t // 1000000, t % 1000000, ty, code, val)

def crafted_recording(prefix, header, events):
    """A crafted recording's path: `header` and the event lines, in a scratch directory."""
    path = os.path.join(scratch_dir(prefix), 'crafted.evemu')
    open(path, 'w').write(header + '\n'.join(events) + '\n')
    return path

def replay_output(*arguments):
    """`strokes replay ARGUMENTS`' standard output (a setup error if it fails, broken if it hangs)."""
    try:
        r = subprocess.run([BIN, 'replay'] + list(arguments), capture_output=True, text=True, timeout=50)
    except subprocess.TimeoutExpired:
        broken('replay did not finish within 50 s')
    if r.returncode != 0: setup_error('replay exit %d: %s' % (r.returncode, r.stderr[-500:]))
    return r.stdout

LIBINPUT_PREAMBLE = ('version: 1\nndevices: 1\nlibinput: {version: "1.22.1", git: "unknown"}\n'
                     'system: {os: "debian:12", kernel: "6.1.0", dmi: "dmi:x"}\ndevices:\n')

def libinput_tap(name):
    """A `libinput record` YAML recording of a 10-slot touchscreen and one tap, its device named
    `name` (written into a double-quoted YAML scalar as given: escapes such as \\ufffe stay escapes)."""
    return LIBINPUT_PREAMBLE + '''- node: /dev/input/event5
  evdev:
    name: "%s"
    id: [24, 0, 0, 0]
    codes: {0: [0, 1, 3], 1: [330], 3: [0, 1, 47, 53, 54, 57]}
    absinfo: {0: [0, 799, 0, 0, 0], 1: [0, 479, 0, 0, 0], 47: [0, 9, 0, 0, 0], 53: [0, 799, 0, 0, 0], 54: [0, 479, 0, 0, 0], 57: [0, 65535, 0, 0, 0]}
    properties: [1]
  events:
  - evdev:
    - [0, 1, 3, 47, 0]
    - [0, 1, 3, 57, 21]
    - [0, 1, 3, 53, 415]
    - [0, 1, 3, 54, 107]
    - [0, 1, 1, 330, 1]
    - [0, 1, 0, 0, 0]
  - evdev:
    - [0, 20000, 3, 57, -1]
    - [0, 20000, 1, 330, 0]
    - [0, 20000, 0, 0, 0]
''' % name


# The ninth round's gesture scripts (52-56): a touchscreen and frames of fingers on it.
GESTURE_SCREEN_HEADER = """N: Test Touchscreen
I: 0003 1234 5678 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 04 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 01 00 00 00 00 00 00 00 00
B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
B: 14 00 00 00 00 00 00 00 00
B: 15 00 00 00 00 00 00 00 00
A: 00 0 29999 0 0 100
A: 01 0 19999 0 0 100
A: 2f 0 9 0 0 0
A: 35 0 29999 0 0 100
A: 36 0 19999 0 0 100
A: 39 0 65535 0 0 0
"""
class GestureScreenRecording:
    """Frames of a touchscreen 300 x 200 mm, 100 units per mm (`GESTURE_SCREEN_HEADER`): `frame(ms,
    [('d', slot, x, y), ('m', slot, x, y), ('u', slot)])` in units; `text()` is the evemu file."""
    def __init__(self): self.ev = []; self.tid = 100; self.down = set()
    def _e(self, ms, typ, code, val):
        us = int(round(ms * 1000)); self.ev.append(f"E: {us//1000000}.{us%1000000:06d} {typ:04x} {code:04x} {val}")
    def frame(self, ms, ops):
        before = len(self.down)
        for op in ops:
            self._e(ms, 3, 0x2f, op[1])
            if op[0] == 'd': self.tid += 1; self._e(ms, 3, 0x39, self.tid); self.down.add(op[1])
            if op[0] in 'dm': self._e(ms, 3, 0x35, int(op[2])); self._e(ms, 3, 0x36, int(op[3]))
            if op[0] == 'u': self._e(ms, 3, 0x39, -1); self.down.discard(op[1])
        if (before == 0) != (len(self.down) == 0): self._e(ms, 1, 0x14a, 1 if self.down else 0)
        self._e(ms, 0, 0, 0)
    def text(self): return GESTURE_SCREEN_HEADER + "\n".join(self.ev) + "\n"
def replay_gestures(rec):
    """The gesture messages of `strokes replay --gestures` on `rec`."""
    d = tempfile.mkdtemp(prefix="strokes-repro-")
    try:
        p = os.path.join(d, "r.evemu"); open(p, "w").write(rec.text())
        r = subprocess.run([BIN, "replay", "--gestures", p], capture_output=True, text=True, timeout=30)
        return [json.loads(l) for l in r.stdout.splitlines() if l.strip() and json.loads(l).get("type") == "gesture"]
    finally:
        shutil.rmtree(d, ignore_errors=True)


# The eighth round's `replay --group` scripts (50, 51): a touchscreen, a pen, and one touch and
# one pen proximity that overlap in time.
def touch_header(name):
    kb = bytearray(0x300 // 8); kb[0x14a // 8] |= 1 << (0x14a % 8)
    ab = bytearray(8)
    for c in (0, 1, 0x2f, 0x35, 0x36, 0x39): ab[c // 8] |= 1 << (c % 8)
    l = [f"N: {name}", "I: 0003 1234 5678 0001", "P: 02 00 00 00 00 00 00 00", "B: 00 0b 00 00 00 00 00 00 00"]
    l += ["B: 01 " + " ".join(f"{b:02x}" for b in kb[i:i + 8]) for i in range(0, len(kb), 8)]
    l += ["B: 03 " + " ".join(f"{b:02x}" for b in ab), "B: 04 00 00 00 00 00 00 00 00", "B: 05 00 00 00 00 00 00 00 00",
          "A: 00 0 4000 0 0 10", "A: 01 0 3000 0 0 10", "A: 2f 0 3 0 0 0", "A: 35 0 4000 0 0 10",
          "A: 36 0 3000 0 0 10", "A: 39 0 65535 0 0 0"]
    return "\n".join(l) + "\n"

def pen_header():
    kb = bytearray(0x300 // 8)
    for k in (0x140, 0x14a): kb[k // 8] |= 1 << (k % 8)
    ab = bytearray(8)
    for c in (0, 1, 0x18): ab[c // 8] |= 1 << (c % 8)
    l = ["N: Test Pen", "I: 0003 1234 5679 0001", "P: 02 00 00 00 00 00 00 00", "B: 00 0b 00 00 00 00 00 00 00"]
    l += ["B: 01 " + " ".join(f"{b:02x}" for b in kb[i:i + 8]) for i in range(0, len(kb), 8)]
    l += ["B: 03 " + " ".join(f"{b:02x}" for b in ab), "B: 04 00 00 00 00 00 00 00 00", "B: 05 00 00 00 00 00 00 00 00",
          "A: 00 0 40000 0 0 100", "A: 01 0 30000 0 0 100", "A: 18 0 2047 0 0 0"]
    return "\n".join(l) + "\n"

def E(t, typ, code, val):
    return f"E: {t // 1000000}.{t % 1000000:06d} {typ:04x} {code:04x} {val}\n"

TOUCH = (E(1000000, 3, 0x2f, 0) + E(1000000, 3, 0x39, 1) + E(1000000, 3, 0x35, 100) + E(1000000, 3, 0x36, 100) + E(1000000, 0, 0, 0)
         + E(1200000, 3, 0x35, 110) + E(1200000, 0, 0, 0)
         + E(1300000, 3, 0x39, -1) + E(1300000, 0, 0, 0))
PEN = (E(1050000, 3, 0, 20000) + E(1050000, 3, 1, 10000) + E(1050000, 1, 0x140, 1) + E(1050000, 0, 0, 0)
       + E(1250000, 1, 0x140, 0) + E(1250000, 0, 0, 0))

def unit(name):
    """A shipped systemd unit (systemd/NAME) as {key: [values, in order]}, sections flattened."""
    kv = {}
    for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'systemd', name)):
        line = line.strip()
        if not line or line[0] in '#;' or line.startswith('['): continue
        k, _, v = line.partition('=')
        kv.setdefault(k.strip(), []).append(v.strip())
    return kv


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    return port

def flood(socks, chunk, seconds, limit=None, tick=None):
    """Writes `chunk` to each of `socks` (made non-blocking) whenever it takes more, for `seconds`
    or until each has taken `limit` bytes, reading nothing; `tick()` runs once per round. The
    bytes each took."""
    taken = [0] * len(socks)
    for s in socks: s.setblocking(False)
    t0 = time.time()
    while time.time() - t0 < seconds:
        want = [s for i, s in enumerate(socks) if limit is None or taken[i] < limit]
        if not want: break
        _, w, _ = select.select([], want, [], 0.05)
        for i, s in enumerate(socks):
            if s in w:
                try: taken[i] += s.send(chunk if limit is None else chunk[:limit - taken[i]])
                except (BlockingIOError, BrokenPipeError, ConnectionResetError): pass
        if tick: tick()
    return taken

def reload_storm(d, configs, every=0.01):
    """Rewrites `d`'s configuration with each of `configs` in turn and sends it SIGHUP, every
    `every` s, in a thread, until the returned function is called."""
    import threading
    done = threading.Event()
    def run():
        i = 0
        while not done.is_set():
            i += 1
            tmp = d.cfg + '.tmp'; open(tmp, 'w').write(configs[i % len(configs)]); os.rename(tmp, d.cfg)
            try: d.p.send_signal(signal.SIGHUP)
            except Exception: return
            time.sleep(every)
    threading.Thread(target=run, daemon=True).start()
    return done.set

def ping_of_length(n, id=1):
    """A `ping` request of exactly `n` bytes (its newline not counted)."""
    head = '{"id":%d,"request":"ping","p":"' % id; tail = '"}'
    return (head + 'x' * (n - len(head) - len(tail)) + tail).encode()

def frame_events(frames, interval=10000):
    """Evemu event lines for `frames`, each a list of (type, code, value) closed by its
    SYN_REPORT, `interval` microseconds apart from the first at `interval`."""
    lines = []
    for i, frame in enumerate(frames):
        t = (i + 1) * interval
        lines += [evemu_event(t, ty, code, v) for ty, code, v in frame] + [evemu_event(t, 0, 0, 0)]
    return lines
