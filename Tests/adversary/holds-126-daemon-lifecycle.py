#!/usr/bin/env python3
"""Holds 119: daemon-level promises a client meets (strokes help daemon, protocol.md): a second
daemon on a live socket exits 69 and the first keeps serving; maxClients (configured 4) refuses the
5th connection with tooManyClients; a looping recording that ends with contacts down cancels them
with reason replayRestarted before the next round, so every began still gets exactly one
ended/cancelled and seq stays gapless.
"""
import json, os, select, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_round import *  # noqa: E402,F401,F403 (Daemon, Conn, check, FAIL, BIN, FIX, SCR, PK, cut_fixture, lifecycle_errors)


def main():
    d = Daemon('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', loop=True, speed=1,
               config='maxClients: 4\n')
    try:
        r = subprocess.run([BIN, 'daemon', '--replay', os.path.join(FIX, '03-atmel-maxtouch-touchscreen-4finger-drag.evemu'),
                            '--socket', d.sock], capture_output=True, timeout=20)
        check(r.returncode == 69, 'second daemon exits 69 (%d)' % r.returncode)
        cs = [Conn(d.sock) for _ in range(4)]
        check(all(c.hello['type'] == 'hello' for c in cs), '4 clients greeted')
        x = Conn(d.sock)
        check(x.hello.get('error') == 'tooManyClients', '5th: tooManyClients')
        for c in cs:
            c.close()
    finally:
        d.stop()
    cut = cut_fixture('03-atmel-maxtouch-touchscreen-4finger-drag.evemu', 200, '03l')
    d = Daemon(cut, loop=True, speed=4)
    try:
        c = Conn(d.sock)
        c.req('subscribe')
        sn = c.next(5)
        live = {s['stroke'] for s in sn['strokes']}
        reasons = set()
        msgs = c.drain(4)
        seqs = [m['seq'] for m in msgs if 'seq' in m]
        bad = lifecycle_errors(msgs, live, reasons=reasons)
        check(reasons == {'replayRestarted'}, 'contacts down at the end cancelled with replayRestarted')
        check(bad == 0 and all(b - a == 1 for a, b in zip(seqs, seqs[1:])), 'lifecycle intact, seq gapless across rounds')
    finally:
        d.stop()
        os.unlink(cut)
    return 1 if FAIL else 0


if __name__ == '__main__':
    sys.exit(main())
