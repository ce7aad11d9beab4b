#!/usr/bin/env python3
"""Holds 113: hover and gesture messages (protocol.md "Hover events", "Gesture events"): only on
request (not in the default subscription), no seq, seq of stroke events still gapless; hover phases
proximityIn/motion/proximityOut with the point keys; gestures: continuous kinds begin, update*,
exactly one end/cancel per id, discrete kinds one end line; never null optional keys.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def collect(path, events, secs):
    c = Conn(path)
    c.req('subscribe', events=events)
    c.next(5)
    m = c.drain(secs)
    c.close()
    return m

def main():
    d1 = Daemon('16-wacom-cintiq13hd-pen-hover-tilt.evemu', loop=True, speed=4)
    d2 = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=2)
    try:
        ALL = ['began', 'moved', 'ended', 'cancelled', 'deviceAdded', 'deviceRemoved', 'hover', 'gesture']
        default = collect(d1.sock, None, 1.5) if False else None
        c = Conn(d1.sock); c.req('subscribe'); c.next(5); default = c.drain(1.5); c.close()
        check(not any(m['type'] in ('hover', 'gesture') for m in default), 'default subscription: no hover/gesture')
        hv = collect(d1.sock, ALL, 3)
        hov = [m for m in hv if m['type'] == 'hover']
        check(len(hov) > 20 and not any('seq' in m for m in hov), 'hover present, no seq')
        check({m['phase'] for m in hov} <= {'proximityIn', 'motion', 'proximityOut'}, 'hover phases')
        check(all({'device', 'frame', 'slot', 'trackingId', 'time', 'x', 'y', 'nx', 'ny'} <= set(m) for m in hov), 'hover point keys')
        seqs = [m['seq'] for m in hv if 'seq' in m]
        check(all(b - a == 1 for a, b in zip(seqs, seqs[1:])), 'stroke seqs gapless around hover')
        check(not any(v is None for m in hv for k, v in m.items() if k != 'trackingId'), 'no null values')
        gs = collect(d2.sock, ALL, 6)
        ges = [m for m in gs if m['type'] == 'gesture']
        check(len(ges) > 5 and not any('seq' in m for m in ges), 'gestures present, no seq')
        state, bad = {}, 0
        for m in ges:
            gid, ph = m['gesture'], m['phase']
            if m['kind'] in ('tap', 'doubleTap'):
                bad += ph != 'end'
            elif ph == 'begin':
                bad += gid in state
                state[gid] = 'open'
            elif ph == 'update':
                bad += gid in state and state[gid] != 'open'
            else:
                bad += gid in state and state[gid] != 'open'
                state[gid] = 'closed'
        check(bad == 0, 'gesture phases: begin, update*, one end/cancel (ids begun before subscribing tolerated)')
    finally:
        d1.stop()
        d2.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
