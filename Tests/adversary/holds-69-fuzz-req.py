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
# Promise (protocol.md Session 2, Errors): every request line gets exactly one reply or error carrying
# its id (null when unreadable); the connection stays open; every line the daemon sends is UTF-8 JSON
# with a "type"; the daemon keeps serving. Random mutation fuzzer.
import random
DUR = float(os.environ.get('FUZZ_SECONDS', '60'))
seed = int(os.environ.get('FUZZ_SEED', '1'))
rng = random.Random(seed)
d = Daemon(replay=REC03, loop=False)
SEEDS = [
 {'id': 1, 'request': 'ping'}, {'id': 'a', 'request': 'stats'}, {'id': 2, 'request': 'devices'},
 {'id': 3, 'request': 'live', 'devices': [1]}, {'id': 4, 'request': 'history', 'limit': 5},
 {'id': 5, 'request': 'history', 'cursor': '0-1'}, {'id': 6, 'request': 'subscribe', 'devices': [1], 'events': ['began', 'ended']},
 {'id': 7, 'request': 'subscribe', 'resumeAfter': 3}, {'id': 8, 'request': 'unsubscribe'},
]
ATOMS = [None, True, False, 0, -1, 1, 2**31, 2**63 - 1, 2**63, 2**64, -2**63 - 1, 1.5, 1e308, -0.0, '', 'x', 'é' * 300,
         '\u0000', '\ud7ff', [], {}, [1] * 300, ['began'] * 20, 'began', 'ping', '0-0', '-1--1', '99999999999999999999-1']
KEYS = ['id', 'request', 'devices', 'events', 'resumeAfter', 'limit', 'cursor', 'zzz', '']
def mutate_obj():
    o = dict(rng.choice(SEEDS))
    for _ in range(rng.randint(0, 3)):
        k = rng.choice(KEYS)
        r = rng.random()
        if r < 0.3: o.pop(k, None)
        else: o[k] = rng.choice(ATOMS)
    return json.dumps(o, ensure_ascii=rng.random() < 0.5).encode()
def mutate_bytes(b):
    b = bytearray(b)
    for _ in range(rng.randint(1, 6)):
        op = rng.random(); i = rng.randrange(len(b) + 1)
        if op < 0.3 and b: del b[min(i, len(b) - 1)]
        elif op < 0.6: b[i:i] = bytes([rng.randrange(256)])
        elif op < 0.8: b[i:i] = rng.choice([b'{', b'[', b'"', b'\\', b'\\u', b'\\ud800', b'}', b']', b',', b':', b'1e9', b'-', b'\xc3', b'\xf0\x9f', b'null'])
        elif b: b[min(i, len(b) - 1)] = rng.randrange(256)
    return bytes(b).replace(b'\n', b' ').replace(b'\r', b' ')
def gen():
    r = rng.random()
    if r < 0.45: x = mutate_obj()
    elif r < 0.9: x = mutate_bytes(mutate_obj())
    elif r < 0.95: x = rng.choice([b'[', b'{"a":', b'{"request":"ping","x":[']) * rng.choice([n for n in range(1, 3000) if not 505 <= n <= 520])  # 513 '[' is finding 01
    else: x = bytes(rng.randrange(1, 256) for _ in range(rng.randint(1, 200))).replace(b'\n', b' ').replace(b'\r', b' ')
    if not x.strip(): x = b'x'
    x = x[:65000]
    if x.count(b'[') in (512, 513) and x.strip(b'[') in (b'', b'{"request":"ping","x":'): x += b' '  # finding 01
    return x
t0 = time.time(); total = 0; conns = 0; codes = {}
while time.time() - t0 < DUR:
    c = Client(d.sock); conns += 1
    for batch in range(20):
        lines = [gen() for _ in range(rng.randint(1, 40))]
        c.sendraw(b''.join(l + b'\n' for l in lines))
        answers = []
        while len(answers) < len(lines):
            raw = c.recv_raw_line(20)
            if raw is None:
                open('/tmp/adv/fuzz_last.txt', 'wb').write(b'\n'.join(lines))
                broken('no answer for %d of %d pipelined lines (daemon alive: %s); lines in /tmp/adv/fuzz_last.txt' % (len(lines) - len(answers), len(lines), d.alive()))
            try:
                m = json.loads(raw.decode('utf-8'))
            except Exception as e:
                broken('daemon sent a line that is not UTF-8 JSON: %r (%s)' % (raw[:200], e))
            if not isinstance(m, dict) or 'type' not in m: broken('line without type: %r' % raw[:200])
            t = m['type']
            if t in ('reply', 'error'):
                answers.append(m)
                if t == 'error': codes[m['error']] = codes.get(m['error'], 0) + 1
                else: codes['reply:' + m.get('request', '?')] = codes.get('reply:' + m.get('request', '?'), 0) + 1
            elif t == 'goodbye':
                broken('goodbye %r after lines %r' % (m, [l[:100] for l in lines]))
        for l, a in zip(lines, answers):
            # when the line parsed with an id the answer must carry that id
            if b'\\ud' in l.lower():
                continue  # lone surrogate escapes: the daemon reads them as invalid JSON
            try:
                o = json.loads(l.decode('utf-8'))
            except Exception:
                continue
            if isinstance(o, dict) and isinstance(o.get('id'), int) and not isinstance(o.get('id'), bool) and -2**63 <= o['id'] < 2**63 and 'id' in a and a['id'] != o['id'] and a.get('error') != 'badArgument':
                broken('answer id %r for request id %r: line %r -> %r' % (a.get('id'), o['id'], l[:200], a))
            if a['type'] == 'error' and len(a.get('message', '')) > 300:
                broken('error message of %d chars for line %r' % (len(a['message']), l[:100]))
        total += len(lines)
    c.close()
    if not d.alive(): broken('daemon died: ' + d.stderr()[-1000:])
print('lines', total, 'connections', conns, codes)
if not d.alive(): broken('daemon died')
d.stop()
held('%d fuzzed request lines each got exactly one answer; daemon alive' % total)
