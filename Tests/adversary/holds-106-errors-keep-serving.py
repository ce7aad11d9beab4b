#!/usr/bin/env python3
"""Holds 106: malformed requests get the documented error codes, the connection stays open, and
other clients keep being served without a gap (protocol.md "Errors"); error messages quote at
most 40 code points with an ellipsis; a line past maxLineLength gets lineTooLong + goodbye.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


CASES = [
    (b'[]', 'invalidJSON'), (b'{"id":1,"request":"ping",}', 'invalidJSON'),
    (b'{"id":01,"request":"ping"}', 'invalidJSON'), (b'\xff', 'invalidJSON'), (b'', 'invalidJSON'),
    (b'{"id":1,"request":"nope"}', 'unknownRequest'), (b'{"id":1}', 'badArgument'),
    (b'{"id":1.5,"request":"ping"}', 'badArgument'), (b'{"id":true,"request":"ping"}', 'badArgument'),
    (b'{"id":1,"request":"history","limit":"5"}', 'badArgument'),
    (b'{"id":1,"request":"history","cursor":"garbage"}', 'badArgument'),
    (b'{"id":1,"request":"history","cursor":"99999-99999"}', 'badArgument'),
    (b'{"id":1,"request":"subscribe","events":["nope"]}', 'badArgument'),
    (b'{"id":1,"request":"subscribe","devices":["a"]}', 'badArgument'),
    (b'{"id":1,"request":"subscribe","resumeAfter":-5}', 'badArgument'),
    (b'{"id":1,"request":"unsubscribe"}', 'notSubscribed'),
]

def main():
    d = Daemon('01-wacom-dth2242-touchscreen-10finger.evemu', loop=True, speed=2)
    try:
        w = Conn(d.sock)
        w.req('subscribe')
        w.next(5)
        bad = Conn(d.sock)
        for raw, code in CASES:
            bad.send(raw + b'\n')
            m = bad.read(5)
            check(m and m['type'] == 'error' and m['error'] == code, '%r -> %s (%s)' % (raw[:40], code, m and m.get('error')))
        check(bad.req('ping')['type'] == 'reply', 'connection still open after errors')
        bad.send({'id': 1, 'request': 'x' * 100})
        m = bad.read(5)
        check(m['message'].endswith('x' * 40 + '\u2026"') and 'x' * 41 not in m['message'], 'quote cut at 40 + …')
        bad.send(b'{"id":1,"request":"ping","p":"' + b'a' * 70000 + b'"}\n')
        m1, m2, m3 = bad.read(5), bad.read(5), bad.read(5)
        check(m1.get('error') == 'lineTooLong' and m2 == {'type': 'goodbye', 'reason': 'lineTooLong'}
              and m3['type'] == 'EOF', 'lineTooLong, goodbye, close')
        msgs = w.drain(1.5)
        seqs = [m['seq'] for m in msgs if 'seq' in m]
        check(len(seqs) > 50 and all(b - a == 1 for a, b in zip(seqs, seqs[1:])),
              'subscriber kept receiving a gapless stream (%d msgs)' % len(seqs))
        w.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
