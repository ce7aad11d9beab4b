#!/usr/bin/env python3
"""StrokeClient (through `strokes gestures`, its CLI user) against a server whose stream carries
extreme but well-typed sequence numbers: a `began` with `"seq":18446744073709551615` (2^64-1),
or two `moved` with `"merged":9223372036854775807`.

Promised (Sources/StrokeClient/StrokeClientError.swift): `protocolError` is what the client throws
when "The peer sent something that is not the strokes protocol: not JSON, a key of the wrong type,
a line longer than the client accepts, no `hello`. Never retried."; Subscription.swift: it throws
"`protocolError` or `daemonError` at once, never retried"; README "Clients": "Errors are
`StrokeClientError` with a `code`".
Broken when the client process dies on a signal (a Swift trap in StreamState.accept) instead of
delivering the messages or failing with a protocolError.
Usage: python3 20-client-seq-overflow-trap.py [/path/to/strokes]"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

DIR = scratch_dir('advy-seqov-')
CONFIG = DIR + '/gestures.yaml'
with open(CONFIG, 'w') as f:
    f.write('every: 0ms\nrules:\n  - name: t\n    kind: tap\n    run: ["true"]\n')

def ev(kind, seq, extra=''):
    return ('{"type":"%s","seq":%s%s,"stroke":1,"device":1,"frame":1,"slot":0,"trackingId":1,'
            '"time":1,"x":1,"y":1,"nx":0.1,"ny":0.1}' % (kind, seq, extra))

CASES = {
    'seq 2^64-1': [ev('began', '18446744073709551615')],
    'merged 2^63-1 twice': [ev('moved', '3', ',"merged":9223372036854775807'),
                            ev('moved', '4', ',"merged":9223372036854775807')],
}
TAP = {"type": "gesture", "gesture": 1, "kind": "tap", "phase": "end", "device": 1, "time": 1000,
       "fingers": 1, "strokes": [1], "x": 1, "y": 2, "nx": 0.1, "ny": 0.2, "duration": 5}

def server(lines):
    def answer(r, send):
        if r["request"] != "subscribe": return False
        send({"type": "reply", "id": r.get("id"), "request": "subscribe", "seq": 1})
        send({"type": "snapshot", "seq": 1, "strokes": []})
        c = CONN[-1]
        def stream():
            try:
                time.sleep(0.2)
                for l in lines: c.sendall(l.encode() + b"\n")
                send(TAP)
                time.sleep(0.3)
                send({"type": "goodbye", "reason": "shutdown"}); c.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        threading.Thread(target=stream, daemon=True).start()
        return True
    def handle(c, send, stop):
        CONN.append(c)
        fake_requests(c, send, stop, answer)
    return handle

failures = []
for name, lines in CASES.items():
    CONN = []
    path = DIR + '/f%d.sock' % list(CASES).index(name)
    FakeDaemon(path, server(lines))
    p = subprocess.Popen([BIN, 'gestures', '--socket', path, '--config', CONFIG, '--dry-run', '--once'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    PROCS.append(p)
    try:
        out, err = p.communicate(timeout=25)
    except subprocess.TimeoutExpired:
        p.kill(); out, err = p.communicate()
        failures.append('%s: still running after 25 s' % name); continue
    err = err.decode('utf-8', 'replace')
    trap = [l for l in err.splitlines() if 'Fatal error' in l or 'runtime failure' in l]
    where = [l.strip() for l in err.splitlines() if 'Sources/StrokeClient' in l][:1]
    if p.returncode < 0 or trap:
        failures.append('%s: killed by signal %d (%s%s)' % (name, -p.returncode if p.returncode < 0 else 0,
                        trap[0].strip() if trap else 'no message', '; at ' + where[0] if where else ''))
if failures:
    broken('strokes gestures (StrokeClient) crashed on a well-typed stream: ' + ' | '.join(failures))
held('extreme seq / merged values were delivered or refused with an error, no crash')
