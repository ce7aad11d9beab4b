#!/usr/bin/env python3
"""Holds 111: maxClientsPerUid 32 (protocol.md "Errors"): 32 connections get hello, the 33rd gets
error tooManyClients instead of hello and is closed, stats clientsRefused counts it. Half-close
(Session 3): a client that shuts down its sending side without subscribing gets its reply, then
goodbye clientClosed; one that subscribed keeps receiving the stream (nc -N style).
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        cs = [Conn(d.sock) for _ in range(32)]
        check(all(c.hello['type'] == 'hello' for c in cs), '32 connections greeted')
        x = Conn(d.sock)
        m = x.hello
        check(m['type'] == 'error' and m['error'] == 'tooManyClients' and m['id'] is None, '33rd: tooManyClients instead of hello')
        check(x.read(3)['type'] == 'EOF', '33rd closed')
        st = cs[0].req('stats')
        check(st['daemon']['clientsRefused'] >= 1 and st['daemon']['clients'] == 32, 'stats clients 32, clientsRefused counted')
        cs.pop().close()
        time.sleep(0.3)
        y = Conn(d.sock)
        check(y.hello['type'] == 'hello', 'after one leaves, a new one is greeted')
        for c in cs:
            c.close()
        y.close()
        time.sleep(0.3)
        h = Conn(d.sock)
        h.send({'id': 1, 'request': 'ping'})
        h.s.shutdown(socket.SHUT_WR)
        check([h.read(3), h.read(3), h.read(3)['type']] == [{'type': 'reply', 'id': 1, 'request': 'ping'},
              {'type': 'goodbye', 'reason': 'clientClosed'}, 'EOF'], 'half-close before subscribe: reply, goodbye clientClosed, close')
        n = Conn(d.sock)
        n.send({'id': 1, 'request': 'subscribe'})
        n.s.shutdown(socket.SHUT_WR)
        msgs = n.drain(3)
        check(sum(1 for m in msgs if m['type'] in ('began', 'moved')) > 5 and msgs[-1]['type'] not in ('goodbye', 'EOF'),
              'half-close after subscribe: stream continues')
        n.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
