#!/usr/bin/env python3
"""Finding 114: what a client sees when a served recording (--replay, loop off) ends with
contacts down is not documented: the strokes stay "inProgress" forever.

Kind: doc incomplete (a client writer must guess).
Doc (protocol.md): `strokes replay` lists such strokes in `replayEnded.stillActive`; for the
daemon only the `loop` case is described (`cancelled` reason `replayRestarted`). Nothing says what
happens without loop (no replayEnded on the socket, no deviceRemoved, no cancel reason).
Binary: a recording cut mid-contact and served with --no-loop leaves its 4 strokes live
indefinitely (live/stats show liveStrokes 4; no ended/cancelled/deviceRemoved is ever sent
until shutdown). A client waiting for the lifecycle guarantee's end message waits forever.
Severity: low (replay-only, but the daemon's documented kiosk/demo use serves recordings).
Fix: document it, or cancel the strokes (e.g. reason replayEnded) / send deviceRemoved at the end.
Exit 1 when strokes remain in progress 2 s after the recording ended, with nothing documented.

Now documented (protocol.md, "Cancel reasons", replayRestarted): without loop, strokes down at the end stay in progress until the daemon stops.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR, PK, cut_fixture, lifecycle_errors)


def main():
    cut = cut_fixture('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', 200, '03')
    d = Daemon(cut, loop=False, speed=0)
    try:
        time.sleep(1)
        c = Conn(d.sock)
        r = c.req('subscribe', resumeAfter=0)
        msgs = c.drain(2)
        ends = [m for m in msgs if m['type'] in ('ended', 'cancelled', 'deviceRemoved')]
        lv = c.req('live')
        print('resumed', r.get('resumed'), 'ended/cancelled/deviceRemoved', len(ends), 'live strokes', len(lv['strokes']))
        doc = ' '.join(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'docs', 'protocol.md')).read().split())  # words, as the lines wrap
        documented = 'no-loop' in doc or 'without loop' in doc or 'loop off' in doc or 'Without `loop`' in doc
        check(documented or not lv['strokes'], 'end of a non-looping served recording is documented or closes its strokes')
        c.close()
    finally:
        d.stop()
        os.unlink(cut)
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
