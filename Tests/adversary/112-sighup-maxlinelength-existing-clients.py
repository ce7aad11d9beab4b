#!/usr/bin/env python3
"""Finding 112: a SIGHUP that lowers maxLineLength applies to connected clients, which were
promised the old value in their greeting, and cuts them with lineTooLong.

Kind: binary breaks a documented promise (protocol.md vs config/strokes.yaml disagree).
Doc (protocol.md, "Transport and framing"): "A client line may be at most `maxLineLength` bytes
(from the greeting; 65536 by default). A longer one gets a lineTooLong error, then a goodbye,
then the daemon closes the connection." Nothing in protocol.md says the value can change during
a connection, and there is no message announcing a new value. (config/strokes.yaml says SIGHUP
applies maxLineLength "at once".)
Binary: daemon started with maxLineLength 1000; a client greets with "maxLineLength":1000; the
config is changed to 500 and SIGHUP sent; the same client's 900-byte request (within what its
greeting allows) gets {"error":"lineTooLong","message":"lines are at most 500 bytes"}, goodbye
lineTooLong and is disconnected.
Severity: medium (a client that obeys the protocol is disconnected; it cannot learn the new limit).
Fix: keep each connection's greeting value (apply reloads to new connections only), or document
that the limit may shrink and announce it.
Exit 1 when the connected client is cut for a line within its greeting's maxLineLength.

Now: a connection keeps the maxLineLength its hello announced; a reload changes it for connections made after it (README, config/strokes.yaml, protocol.md).
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def pad(n):
    base = b'{"id":1,"request":"ping","p":"'
    return base + b'x' * (n - len(base) - 2) + b'"}\n'

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1,
               config='maxLineLength: 1000\n')
    try:
        c = Conn(d.sock)
        print('greeting maxLineLength', c.hello['maxLineLength'])
        with open(os.path.join(d.dir, 'c.yaml'), 'w') as f:
            f.write('maxLineLength: 500\n')
        d.proc.send_signal(signal.SIGHUP)
        time.sleep(1.0)
        n = Conn(d.sock)
        print('new client greeting', n.hello['maxLineLength'])
        n.close()
        c.send(pad(900))
        m = c.read(5)
        print('900-byte request on the old connection ->', m)
        check(c.hello['maxLineLength'] == 1000 and m and m.get('type') == 'reply',
              'a line within the greeting maxLineLength is served after a reload')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
