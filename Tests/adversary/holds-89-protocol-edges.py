#!/usr/bin/env python3
"""HELD check: exact protocol edges from docs/protocol.md.
- a line of exactly maxLineLength (65536) bytes is served, with \\n or \\r\\n; 65537 gets
  lineTooLong, then goodbye lineTooLong, then the connection closes;
- a request written one byte per send is served;
- a client that sends a request and shuts down its sending side gets the reply, then goodbye
  clientClosed; one that subscribes and shuts down keeps receiving the stream;
- a string id of 256 code points (astral characters, \\u escapes) is echoed, 257 is badArgument.
Run: python3 holds-01-protocol-edges.py /path/to/strokes   (exit 0 HELD, 1 BROKEN, 2 setup)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC01

class C(Client):
    def line(self, timeout=10):
        """The next line; b'' once the daemon has closed, None if nothing came within `timeout`."""
        l = self.recv_raw_line(timeout)
        return b'' if l is None and self.eof else l

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC): print('setup: missing files'); return 2
    sock = Daemon(replay=REC, loop=True, speed=1).sock
    fails = []
    def sized(n, end):
        base, tail = b'{"id":1,"request":"ping","pad":"', b'"}'
        return base + b'x' * (n - len(base) - len(tail)) + tail + end
    for n, end in ((65536, b'\n'), (65536, b'\r\n')):
        c = C(sock); c.s.sendall(sized(n, end)); r = c.line()
        if not r or json.loads(r).get('type') != 'reply': fails.append('line of %d bytes (%r) not served: %r' % (n, end, r))
    c = C(sock); c.s.sendall(sized(65537, b'\n'))
    got = [c.line(), c.line(), c.line()]
    if not (got[0] and json.loads(got[0]).get('error') == 'lineTooLong' and got[1] and
            json.loads(got[1]) == {'type': 'goodbye', 'reason': 'lineTooLong'} and got[2] == b''):
        fails.append('65537-byte line: %r' % got)
    c = C(sock)
    for b in b'{"id":7,"request":"ping"}\n': c.s.send(bytes([b]))
    r = c.line()
    if not r or json.loads(r).get('id') != 7: fails.append('bytewise request: %r' % r)
    c = C(sock); c.s.sendall(b'{"id":1,"request":"ping"}\n'); c.s.shutdown(socket.SHUT_WR)
    got = [c.line(), c.line(), c.line()]
    if not (got[0] and json.loads(got[0]).get('type') == 'reply' and got[1] and
            json.loads(got[1]) == {'type': 'goodbye', 'reason': 'clientClosed'} and got[2] == b''):
        fails.append('ping + half-close: %r' % got)
    c = C(sock); c.s.sendall(b'{"id":1,"request":"subscribe"}\n'); c.s.shutdown(socket.SHUT_WR)
    types = []
    for i in range(30):
        l = c.line(5)
        if not l: break
        types.append(json.loads(l)['type'])
    if types[:2] != ['reply', 'snapshot'] or len(types) < 10 or 'goodbye' in types:
        fails.append('subscribe + half-close: %r' % types[:12])
    c = C(sock)
    for n, ok in ((256, True), (257, False)):
        c.s.sendall(json.dumps({'id': '\U0001F600' * n, 'request': 'ping'}).encode() + b'\n')
        m = json.loads(c.line())
        if ok and not (m.get('type') == 'reply' and m.get('id') == '\U0001F600' * n): fails.append('id of 256 astral chars: %r' % str(m)[:80])
        if not ok and m.get('error') != 'badArgument': fails.append('id of 257 astral chars: %r' % str(m)[:80])
    if fails:
        print('BROKEN: ' + '; '.join(fails)); return 1
    print('HELD: line limit at exactly 65536/65537 (LF and CRLF), bytewise requests, half-close before/after subscribe, 256-code-point ids')
    return 0

if __name__ == '__main__':
    sys.exit(main())
