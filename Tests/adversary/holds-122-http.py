#!/usr/bin/env python3
"""Holds 115: HTTP/SSE surface (protocol.md "HTTP, SSE and WebSocket"): GET /devices is exactly the
socket's devices reply line; /healthz; SSE: hello/reply as named events without id, snapshot with
event: snapshot and id = seq, stream events with id = seq and no event line; 404/405/400/403/426
with the documented error objects.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


PORT = 17790 + os.getpid() % 100

def raw(req, n=4096, wait=1.0):
    s = socket.create_connection(('127.0.0.1', PORT))
    s.sendall(req)
    s.settimeout(wait)
    d = b''
    try:
        while len(d) < n:
            x = s.recv(65536)
            if not x:
                break
            d += x
    except socket.timeout:
        pass
    s.close()
    return d

def dechunk(b):
    out = b''
    while b:
        if b'\r\n' not in b:
            break
        size, rest = b.split(b'\r\n', 1)
        n = int(size, 16)
        if n == 0:
            break
        out += rest[:n]
        b = rest[n + 2:]
    return out

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=2,
               extra=['--http', '127.0.0.1:%d' % PORT])
    try:
        H = b'Host: 127.0.0.1:%d\r\n' % PORT
        c = Conn(d.sock)
        c.send(b'{"request":"devices"}\n')
        line = c.line(5) + b'\n'
        body = raw(b'GET /devices HTTP/1.1\r\n' + H + b'Connection: close\r\n\r\n').split(b'\r\n\r\n', 1)[1]
        check(body == line, '/devices body == socket devices reply line')
        hz = raw(b'GET /healthz HTTP/1.1\r\n' + H + b'Connection: close\r\n\r\n')
        check(b'200 OK' in hz and b'"status":"ok"' in hz, '/healthz ok')
        sse = raw(b'GET /events HTTP/1.1\r\n' + H + b'\r\n', 20000, 1.5).decode()
        check('text/event-stream' in sse, 'SSE content type')
        events = []
        body = dechunk(sse.split('\r\n\r\n', 1)[1].encode()).decode()
        for block in body.split('\n\n'):
            f = {}
            for l in block.splitlines():
                if ':' in l and l.split(':', 1)[0] in ('event', 'id', 'data'):
                    k, v = l.split(':', 1)
                    f[k] = v.strip()
            if 'data' in f:
                events.append(f)
        ok = True
        for e in events[:-1]:
            m = json.loads(e['data'])
            if m['type'] in ('hello', 'reply'):
                ok &= e.get('event') == m['type'] and 'id' not in e
            elif m['type'] == 'snapshot':
                ok &= e.get('event') == 'snapshot' and e.get('id') == str(m['seq'])
            elif 'seq' in m:
                ok &= 'event' not in e and e.get('id') == str(m['seq'])
        check(ok and len(events) > 3, 'SSE event/id framing (%d events)' % len(events))
        for req, status, code in [(b'GET /nope', b'404', 'unknownRequest'), (b'POST /devices', b'405', 'unknownRequest'),
                                  (b'GET /history?limit=-1', b'400', 'badArgument'), (b'GET /ws', b'426', 'badArgument'),
                                  (b'GET /events?lastEventId=abc', b'400', 'badArgument')]:
            r = raw(req + b' HTTP/1.1\r\n' + H + b'Content-Length: 0\r\nConnection: close\r\n\r\n')
            check(r.split(b'\r\n')[0].split(b' ')[1] == status and ('"error":"%s"' % code).encode() in r, '%s -> %s %s' % (req.decode(), status.decode(), code))
        r = raw(b'GET /devices HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n')
        check(b' 403 ' in r.split(b'\r\n')[0] and b'"forbidden"' in r, 'foreign Host: 403 forbidden')
        r = raw(b'GET /devices HTTP/1.1\r\nConnection: close\r\n\r\n')
        check(b' 400 ' in r.split(b'\r\n')[0], 'HTTP/1.1 without Host: 400')
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
