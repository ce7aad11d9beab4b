#!/usr/bin/env python3
"""Holds 107: request limits at and just past the stated numbers (protocol.md "Limits"):
line 65536 bytes ok / 65537 lineTooLong; nesting 32 ok / 33 invalidJSON; string id 256 code
points ok (astral counted once) / 257 badArgument; devices 256 / 257; events 16 / 17;
history limit 1000000 / 1000001 (and -1).
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def one(path, raw):
    c = Conn(path)
    c.send(raw)
    m = c.read(5)
    c.close()
    return m

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        P = d.sock
        base = b'{"id":1,"request":"ping","p":"'
        for n, ok in [(65536, True), (65537, False)]:
            m = one(P, base + b'x' * (n - len(base) - 2) + b'"}\n')
            check((m['type'] == 'reply') == ok and (ok or m.get('error') == 'lineTooLong'), 'line %d' % n)
        for dep, ok in [(32, True), (33, False)]:
            m = one(P, b'{"id":1,"request":"ping","n":' + b'[' * (dep - 1) + b']' * (dep - 1) + b'}\n')
            check((m['type'] == 'reply') == ok and (ok or m.get('error') == 'invalidJSON'), 'nesting %d' % dep)
        for n, ok in [(256, True), (257, False)]:
            for ch in ('e', '\U0001F600'):
                m = one(P, json.dumps({'id': ch * n, 'request': 'ping'}, ensure_ascii=False).encode() + b'\n')
                check((m['type'] == 'reply' and m['id'] == ch * n) if ok else m.get('error') == 'badArgument',
                      'id of %d x %r' % (n, ch))
        for req in ('live', 'subscribe', 'history'):
            for n, ok in [(256, True), (257, False)]:
                m = one(P, json.dumps({'id': 1, 'request': req, 'devices': list(range(n))}).encode() + b'\n')
                check((m['type'] == 'reply') == ok and (ok or m.get('error') == 'badArgument'), '%s devices %d' % (req, n))
        for n, ok in [(16, True), (17, False)]:
            m = one(P, json.dumps({'id': 1, 'request': 'subscribe', 'events': (['began', 'moved'] * 9)[:n]}).encode() + b'\n')
            check((m['type'] == 'reply') == ok and (ok or m.get('error') == 'badArgument'), 'events %d' % n)
        for n, ok in [(1000000, True), (1000001, False), (-1, False), (0, True)]:
            m = one(P, json.dumps({'id': 1, 'request': 'history', 'limit': n}).encode() + b'\n')
            check((m['type'] == 'reply') == ok and (ok or m.get('error') == 'badArgument'), 'history limit %d' % n)
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
