#!/usr/bin/env python3
"""HELD check: README "Idle ... no thread of the daemon wakes at all" and docs/performance.md
(idle SSE and WebSocket clients: no wake-up), with hostile idle peers mixed in: a subscribed Unix
client, a Unix client with half a request line, a client that subscribed to hover+gesture and
half-closed, an SSE stream, an HTTP keep-alive connection, a half-sent HTTP request header, and a
WebSocket whose client half-closed. After the replay has ended, no thread of the daemon may make a
context switch in 4 s.
Run: python3 holds-03-idle-no-wakeups-mixed-clients.py /path/to/strokes   (0 HELD, 1 BROKEN, 2 setup)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC03
KEEP = []  # sockets held open to the end (they exit with the process)
TMP = scratch_dir('advx-idle-')

def switches(pid):
    out = {}
    for t in os.listdir('/proc/%d/task' % pid):
        try: st = open('/proc/%d/task/%s/status' % (pid, t)).read()
        except FileNotFoundError: continue
        n = sum(int(l.split()[1]) for l in st.splitlines() if l.startswith(('voluntary_ctxt_switches', 'nonvoluntary_ctxt_switches')))
        out[t] = n
    return out

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC): print('setup: missing files'); return 2
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
    sock = os.path.join(TMP, 's.sock'); cfg = os.path.join(TMP, 'c.yaml')
    open(cfg, 'w').write('socket:\n  path: %s\n' % sock)
    p = subprocess.Popen([BIN, 'daemon', '--config', cfg, '--socket', sock, '--replay', REC, '--no-loop', '--speed', '0',
                          '--http', '127.0.0.1:%d' % port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    PROCS.append(p)
    t0 = time.time()
    while time.time() - t0 < 30:
        try: socket.create_connection(('127.0.0.1', port), timeout=1).close(); break
        except OSError: time.sleep(0.1)
    else: print('setup: daemon did not start'); return 2
    H = ('Host: 127.0.0.1:%d\r\n' % port).encode()
    def unix(data, shut=False):
        c = socket.socket(socket.AF_UNIX); c.connect(sock); c.sendall(data)
        if shut: c.shutdown(socket.SHUT_WR)
        KEEP.append(c)
    def tcp(data):
        c = socket.create_connection(('127.0.0.1', port)); c.sendall(data); KEEP.append(c); return c
    unix(b'{"id":1,"request":"subscribe"}\n')
    unix(b'{"id":1,"req')
    unix(b'{"id":1,"request":"subscribe","events":["hover","gesture"]}\n', shut=True)
    tcp(b'GET /events HTTP/1.1\r\n' + H + b'\r\n')
    tcp(b'GET /stats HTTP/1.1\r\n' + H + b'\r\n')
    tcp(b'GET /stats HTTP/1.1\r\nHo')
    w = tcp(b'GET /ws HTTP/1.1\r\n' + H + b'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ' +
            base64.b64encode(os.urandom(16)) + b'\r\nSec-WebSocket-Version: 13\r\n\r\n')
    w.settimeout(5)
    if not w.recv(20).startswith(b'HTTP/1.1 101'): print('setup: no WebSocket upgrade'); return 2
    w.shutdown(socket.SHUT_WR)
    time.sleep(3)
    a = switches(p.pid); time.sleep(4); b = switches(p.pid)
    woke = {t: b[t] - a[t] for t in b if t in a and b[t] != a[t]}
    if p.poll() is not None: print('BROKEN: daemon died (rc %s)' % p.returncode); return 1
    if woke:
        print('BROKEN: idle daemon threads woke in 4 s: %r' % woke); return 1
    print('HELD: with 7 idle/hostile peers (Unix, SSE, WS half-closed, half-sent HTTP) no daemon thread woke in 4 s')
    return 0

if __name__ == '__main__':
    sys.exit(main())
