#!/usr/bin/env python3
"""Finding 113: what an empty `devices` array means is not documented (it means "no device").

Kind: doc ambiguity (a client writer must guess).
Doc (protocol.md, "Requests"): `devices` is an "array of device ids; all when absent" (subscribe,
live, history). It does not say what [] means; `events` likewise ("all but hover and gesture when
absent"). A client building the array from a user selection may send [] meaning "no filter".
Binary: {"request":"subscribe","devices":[]} is accepted and then delivers nothing at all (empty
snapshot, no stroke or device events), i.e. [] = no device; the same for live/history.
Severity: low. Fix: state "an empty array selects nothing" (or reject it with badArgument).
Exit 1 while [] silently selects nothing and the doc does not say so.

Now documented: an empty array selects nothing.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=2)
    try:
        c = Conn(d.sock)
        r = c.req('subscribe', devices=[])
        sn = c.next(5)
        msgs = c.drain(2)
        lv = c.req('live', devices=[])
        print('reply', r, 'snapshot strokes', len(sn['strokes']), 'stream msgs', len(msgs), 'live', len(lv['strokes']))
        doc = ' '.join(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'docs', 'protocol.md')).read().split())  # words, as the lines wrap
        documented = 'empty array' in doc or 'an empty `devices`' in doc or '`[]`' in doc
        silently_nothing = r['type'] == 'reply' and not msgs
        print('doc defines []:', documented)
        check(documented or not silently_nothing, 'the meaning of devices: [] is documented')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
