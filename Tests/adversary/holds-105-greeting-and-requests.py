#!/usr/bin/env python3
"""Holds 105: greeting and every request's reply shape (protocol.md "Session", "Requests").

hello: type, protocol 1, daemon "strokes X", instance = 16 lowercase hex, seq = last seq,
features (the documented names), maxLineLength 65536. Each request gets exactly one reply
carrying its id (null when absent) and request name with the documented keys: subscribe (seq),
unsubscribe (seq), devices (device objects), live (seq, strokes), history (strokes), ping (no
extra keys), stats (daemon/you/devices keys). Unknown keys are ignored.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


import re
FEATS = {'subscribe', 'filters', 'snapshot', 'resume', 'merge', 'devices', 'live', 'history',
         'ping', 'stats', 'hover', 'gestures'}

def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1)
    try:
        c = Conn(d.sock)
        h = c.hello
        print(h)
        check(h['type'] == 'hello' and h['protocol'] == 1, 'hello protocol 1')
        check(re.fullmatch(r'strokes \S+', h['daemon']) is not None, 'daemon "strokes VERSION"')
        check(re.fullmatch(r'[0-9a-f]{16}', h['instance']) is not None, 'instance 16 lowercase hex')
        check(isinstance(h['seq'], int) and FEATS <= set(h['features']), 'seq int, features listed')
        check(h['maxLineLength'] == 65536, 'maxLineLength 65536')
        st = c.req('stats')
        check(set(st['daemon']) >= {'seq', 'frames', 'devices', 'clients', 'liveStrokes',
              'completedStrokes', 'touchJumps', 'slowClientsDisconnected', 'clientsRefused',
              'queuedBytes'}, 'stats daemon keys')
        check(set(st['you']) >= {'client', 'sent', 'queued', 'queuedBytes', 'merged', 'subscribed',
              'paced'}, 'stats you keys')
        check(all('device' in x and isinstance(x.get('diagnostics'), dict) for x in st['devices']),
              'stats devices')
        p = c.req('ping', whatever={'x': [1]})
        check(set(p) == {'type', 'id', 'request'}, 'ping reply has no extra keys, unknown key ignored')
        c.send(b'{"request":"ping"}\n')
        check(c.read(5) == {'type': 'reply', 'id': None, 'request': 'ping'}, 'absent id echoed as null')
        dv = c.req('devices')['devices']
        keys = {'device', 'name', 'path', 'kind', 'slots', 'bustype', 'vendor', 'product', 'x', 'y',
                'axes', 'semiMT'}
        check(all(keys <= set(x) and x['path'].startswith('replay:') for x in dv), 'device objects')
        lv = c.req('live')
        check(isinstance(lv['seq'], int) and isinstance(lv['strokes'], list), 'live seq+strokes')
        check(all(s['state'] == 'inProgress' for s in lv['strokes']), 'live strokes inProgress')
        hs = c.req('history')
        check(isinstance(hs['strokes'], list) and all(s['state'] == 'ended' for s in hs['strokes']),
              'history ended strokes')
        sb = c.req('subscribe')
        check(sb['type'] == 'reply' and isinstance(sb['seq'], int), 'subscribe reply seq')
        sn = c.next(5)
        check(sn['type'] == 'snapshot' and sn['seq'] == sb['seq'], 'snapshot follows with the same seq')
        u = c.req('unsubscribe')
        check(u['type'] == 'reply' and isinstance(u['seq'], int), 'unsubscribe reply seq')
        after = [m for m in c.drain(1.0) if m['type'] in ('began', 'moved', 'ended', 'cancelled')]
        check(not after, 'no stream after unsubscribe reply')
        e = c.req('unsubscribe')
        check(e.get('error') == 'notSubscribed', 'second unsubscribe: notSubscribed')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
