#!/usr/bin/env python3
"""HTTP Host check looks only at the first Host header: a request carrying two Host headers, the
first naming the listener and the second a foreign name, is served (200) although the second Host
does not name the listener; the reverse order gets 403. RFC 7230 5.4 requires a 400 for any
request with more than one Host header. docs/protocol.md: "Without a token, Host must name the
listener (or an allowed origin's host)"; the same check with the headers reversed refuses.

Run: python3 03-http-duplicate-host.py /path/to/strokes
Exit 1 = BROKEN, 0 = HELD, 2 = setup error.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC03
TMP = scratch_dir('advx-host-')

def free_port():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close(); return port

def status(port, req):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    s.sendall(req)
    data = b''
    try:
        while b'\r\n' not in data:
            d = s.recv(4096)
            if not d: break
            data += d
    finally:
        s.close()
    line = data.split(b'\r\n', 1)[0].decode(errors='replace')
    return int(line.split()[1]) if len(line.split()) > 1 else None

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC):
        print('setup: binary or recording missing'); return 2
    port = free_port()
    sock = os.path.join(TMP, 's.sock'); cfg = os.path.join(TMP, 'c.yaml')
    open(cfg, 'w').write('socket:\n  path: %s\n' % sock)
    p = subprocess.Popen([BIN, 'daemon', '--config', cfg, '--socket', sock, '--replay', REC, '--no-loop',
                          '--speed', '0', '--http', '127.0.0.1:%d' % port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    PROCS.append(p)
    t0 = time.time()
    while time.time() - t0 < 30:
        try:
            socket.create_connection(('127.0.0.1', port), timeout=1).close(); break
        except OSError: time.sleep(0.1)
    else:
        print('setup: HTTP listener did not come up'); return 2
    good = 'Host: 127.0.0.1:%d\r\n' % port
    evil = 'Host: evil.example\r\n'
    single_good = status(port, ('GET /stats HTTP/1.1\r\n' + good + 'Connection: close\r\n\r\n').encode())
    single_evil = status(port, ('GET /stats HTTP/1.1\r\n' + evil + 'Connection: close\r\n\r\n').encode())
    evil_first = status(port, ('GET /stats HTTP/1.1\r\n' + evil + good + 'Connection: close\r\n\r\n').encode())
    good_first = status(port, ('GET /stats HTTP/1.1\r\n' + good + evil + 'Connection: close\r\n\r\n').encode())
    print('one good Host: %s, one foreign Host: %s, foreign+good: %s, good+foreign: %s'
          % (single_good, single_evil, evil_first, good_first))
    if single_good != 200 or single_evil != 403:
        print('setup: unexpected baseline statuses'); return 2
    if good_first == 200 or evil_first == 200:
        print('BROKEN: a request with two Host headers (one foreign) is served with 200 '
              '(good+foreign %s, foreign+good %s); expected 400 (RFC 7230 5.4) or 403' % (good_first, evil_first))
        return 1
    print('HELD: a request with two Host headers is refused')
    return 0

if __name__ == '__main__':
    sys.exit(main())
