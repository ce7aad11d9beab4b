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
# Promise (protocol.md Errors / security.md): past maxClientsPerUid (32, root included) or maxClients
# a connection gets tooManyClients *instead of hello*, then is disconnected; others keep being served;
# slots freed by closed clients are reusable; no descriptor leak after connect floods.
d = Daemon(replay=REC03, loop=True)
held_clients = []
for i in range(32):
    held_clients.append(Client(d.sock))
c = Client(d.sock, hello=False)
m = c.recv(5)
if m is None or m.get('type') != 'error' or m.get('error') != 'tooManyClients':
    broken('33rd connection of one uid got %r instead of error tooManyClients' % (m,))
if not c.closed(5): broken('33rd connection not closed after tooManyClients')
# existing clients still served
r = held_clients[0].request({'id': 'p', 'request': 'ping'})
if not r or r.get('type') != 'reply': broken('existing client not served after refusal: %r' % r)
for x in held_clients[:5]: x.close()
time.sleep(0.5)
try:
    c2 = Client(d.sock)
except Exception as e:
    broken('slot not freed after 5 clients closed: %s' % e)
c2.close()
for x in held_clients[5:]: x.close()
time.sleep(0.5)
fd0 = d.nfds()
# flood: connect/close immediately, half-open, close after hello
for i in range(600):
    s = socket.socket(socket.AF_UNIX); s.connect(d.sock)
    if i % 3 == 1: s.shutdown(socket.SHUT_WR)
    if i % 3 == 2: s.send(b'{"request":"sub')
    s.close()
time.sleep(2)
st = stats(d.sock)
fd1 = d.nfds()
print('fds before %d after %d; stats clients %s refused %s' % (fd0, fd1, st['daemon']['clients'], st['daemon']['clientsRefused']))
if fd1 > fd0 + 3: broken('descriptor leak: %d fds before, %d after 600 connect/close cycles' % (fd0, fd1))
if st['daemon']['clients'] > 2: broken('stats still counts %d clients after flood' % st['daemon']['clients'])
# maxClients total
d.stop()
d = Daemon(config='maxClients: 5\nmaxClientsPerUid: 100\n', replay=REC03)
cs = [Client(d.sock) for i in range(5)]
c = Client(d.sock, hello=False)
m = c.recv(5)
if m is None or m.get('error') != 'tooManyClients': broken('6th connection with maxClients 5 got %r' % (m,))
d.stop()
held('per-uid and total limits, refusal before hello, slot reuse, no fd leak')
