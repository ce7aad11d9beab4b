#!/usr/bin/env python3
# ---- common helpers (inlined in every reproducer) ----
import os, sys, json, socket, subprocess, time, tempfile, select, signal, struct, re, shutil

BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../.build/debug/strokes')
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), '../ReplayTests/Fixtures')
REC01 = FIX + '/01-wacom-dth2242-touchscreen-10finger.evemu'
REC03 = FIX + '/03-atmel-maxtouch-touchscreen-4finger-drag.evemu'

_DAEMONS = []
def _cleanup():
    for d in _DAEMONS:
        try:
            if d.p.poll() is None:
                d.p.kill(); d.p.wait(5)
        except Exception:
            pass

def broken(msg):
    print('BROKEN: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(1)

def held(msg):
    print('HELD: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(0)

def setup_error(msg):
    print('SETUP ERROR: ' + msg); sys.stdout.flush(); _cleanup(); os._exit(2)

import atexit
atexit.register(_cleanup)

class Daemon:
    def __init__(self, config='', replay=REC01, loop=True, speed=None, extra=(), wait=True, http=None):
        self.dir = tempfile.mkdtemp(prefix='advd-', dir='/tmp')
        self.sock = os.path.join(self.dir, 's.sock')
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
        self.p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=self.errf)
        _DAEMONS.append(self)
        if wait:
            t0 = time.time()
            while time.time() - t0 < 15:
                if self.p.poll() is not None:
                    setup_error('daemon exited %s: %s' % (self.p.returncode, self.stderr()[-2000:]))
                if os.path.exists(self.sock):
                    try:
                        s = socket.socket(socket.AF_UNIX); s.connect(self.sock); s.close(); break
                    except OSError:
                        pass
                time.sleep(0.05)
            else:
                setup_error('daemon did not come up')
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

def stats(path):
    c = Client(path)
    r = c.request({'id': 's', 'request': 'stats'})
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
# ---- end of common helpers ----
# Promise (protocol.md HTTP): http.maxConnections (64) connections at once, past it 503 tooManyClients and
# closed; WebSocket/SSE clients count against maxClients; a never-read SSE stream gets the slow-client
# policy (stall timer) like a socket.
PORT = 17490 + os.getpid() % 100
d = Daemon(config='maxClients: 3\nqueue:\n  disconnectAfterSeconds: 3\n', replay=REC01, loop=True, speed=10, http='127.0.0.1:%d' % PORT)
time.sleep(0.5)
def conn(path=b'/healthz', send=True):
    s = socket.create_connection(('127.0.0.1', PORT)); s.settimeout(3)
    if send: s.sendall(b'GET ' + path + b' HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n' % PORT)
    return s
# 1) maxClients counts SSE: 3 SSE streams, the 4th must be refused
sse = [conn(b'/events') for _ in range(3)]
time.sleep(0.5)
s4 = conn(b'/events'); r4 = b''
t4 = time.time()
while time.time() - t4 < 3 and b'tooManyClients' not in r4 and b'"hello"' not in r4:
    try:
        x = s4.recv(4000)
        if not x: break
        r4 += x
    except socket.timeout: break
print('4th SSE with maxClients 3:', r4[:300])
fourth_ok = b'tooManyClients' in r4
# 2) never-reading SSE streams are cut by the stall timer
t0 = time.time(); cut = 0
while time.time() - t0 < 20:
    st = stats(d.sock)['daemon'] if False else None
    s = socket.create_connection(('127.0.0.1', PORT)); s.settimeout(3)
    s.sendall(b'GET /stats HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n' % PORT)
    body = b''
    try:
        while True:
            x = s.recv(65536)
            if not x: break
            body += x
    except socket.timeout: pass
    s.close()
    try:
        j = json.loads(body.partition(b'\r\n\r\n')[2])
        cut = j['daemon']['slowClientsDisconnected']
    except Exception:
        pass
    if cut >= 3: break
    time.sleep(0.5)
print('never-reading SSE cut:', cut, 'after %.1f s' % (time.time() - t0))
for s in sse: s.close()
s4.close()
time.sleep(1)
# 3) maxConnections 64
held_c = []
for i in range(64):
    held_c.append(conn(send=False))
time.sleep(0.5)
x = conn(b'/healthz'); r = b''
try: r = x.recv(2000)
except socket.timeout: r = b'<timeout>'
print('65th connection:', r[:60])
d.stop()
if not fourth_ok: broken('4th SSE stream with maxClients 3 was not refused with tooManyClients: %r' % r4[:200])
if cut < 3: broken('never-reading SSE streams not cut by the stall timer (slowClientsDisconnected %d)' % cut)
if b' 503 ' not in r.split(b'\r\n')[0]: broken('65th HTTP connection got %r, expected 503' % r[:80])
held('HTTP limits')
