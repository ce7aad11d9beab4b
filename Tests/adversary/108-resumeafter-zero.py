#!/usr/bin/env python3
"""Finding 108: resumeAfter 0 is treated as a valid sequence number.

Kind: doc statement contradicted by the binary (a client writer must guess).
Doc (protocol.md, "Subscribing, snapshots and resuming"): sequence numbers are "1, 2, 3, ... for
the daemon instance"; "When it no longer holds them all (or S is not one of its sequence numbers)
it replies "resumed":false,"reason":"gapTooOld" and sends a snapshot".
Binary: {"request":"subscribe","resumeAfter":0} on a young daemon replies "resumed":true and
replays from seq 1 (deviceAdded ...), no snapshot. 0 is not one of its sequence numbers, so by
the doc it should be gapTooOld. A client that uses 0 as "I have nothing" gets either behaviour
depending on the daemon's age (gapTooOld once more than `resume` messages exist).
Severity: low. Fix: document resumeAfter 0 as "from the start, when still held" (or reject it).
Exit 1 when resumeAfter 0 is answered resumed:true.

Now documented (protocol.md, "Subscribing, snapshots and resuming"): 0 is the seq of a subscribe reply before the first stream message; resumeAfter 0 resends from 1 while the daemon holds it, else gapTooOld. This script checks that behaviour.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=False, speed=0)
    try:
        c = Conn(d.sock)
        r = c.req('subscribe', resumeAfter=0)
        first = c.next(2)
        print('reply', r, 'first', first and {k: first[k] for k in ('type', 'seq') if k in first})
        # Documented since: 0 is the `seq` of a subscribe reply before the first stream message,
        # so resumeAfter 0 resends everything from 1 while the daemon holds it, else gapTooOld.
        if r.get('resumed') is True:
            check(first is not None and first.get('seq') == 1, 'resumeAfter 0, resumed: the stream starts at seq 1')
        else:
            check(r.get('reason') == 'gapTooOld' and first is not None and first.get('type') == 'snapshot',
                  'resumeAfter 0, not resumed: gapTooOld and a snapshot')
        c.close()
    finally:
        d.stop()
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
