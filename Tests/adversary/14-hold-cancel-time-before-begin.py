#!/usr/bin/env python3
"""A hold that fired on the daemon's timer and is then cancelled at shutdown carries a `time`
(and `duration`) earlier than its own `begin`: the begin says time = the moment the timeout passed
(400 ms after the finger landed), the cancel says the time of the last frame (10 ms). So a
gesture's steps go back in time and `duration` shrinks from 400 ms to 10 ms. docs/protocol.md,
"Gesture events": `time` is "the frame that produced this step (a hold's begin: the moment its
timeout passed)", `duration` is "µs from the first finger down to this step". Low severity: the
docs do not say which time a cancel without a frame gets; a client measuring the hold sees a
negative interval.

Run: python3 04-hold-cancel-time-before-begin.py /path/to/strokes
Exit 1 = BROKEN, 0 = HELD, 2 = setup error.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
HDR_SRC = REC03
TMP = scratch_dir('advx-hold-')

def ev(t, typ, code, val):
    return 'E: %d.%06d %04x %04x %d\n' % (t // 1000000, t % 1000000, typ, code, val)

def main():
    if not os.path.exists(BIN) or not os.path.exists(HDR_SRC):
        print('setup: binary or recording missing'); return 2
    hdr = open(HDR_SRC).read().split('E: 0.000001')[0]
    # one finger lands at 1 µs and rests (a frame at 10 ms), never lifts
    evs = [ev(1, 3, 0x2f, 0), ev(1, 3, 0x39, 5), ev(1, 3, 0x35, 400), ev(1, 3, 0x36, 200), ev(1, 0, 0, 0),
           ev(10000, 3, 0x35, 400), ev(10000, 0, 0, 0)]
    rec = os.path.join(TMP, 'hold.evemu'); open(rec, 'w').write(hdr + ''.join(evs))
    sock = os.path.join(TMP, 's.sock'); cfg = os.path.join(TMP, 'c.yaml')
    open(cfg, 'w').write('socket:\n  path: %s\n' % sock)
    p = subprocess.Popen([BIN, 'daemon', '--config', cfg, '--socket', sock, '--replay', rec, '--no-loop', '--speed', '1'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    PROCS.append(p)
    t0 = time.time(); c = None
    while time.time() - t0 < 30:
        try:
            c = socket.socket(socket.AF_UNIX); c.connect(sock); break
        except OSError: c = None; time.sleep(0.05)
    if c is None:
        print('setup: daemon did not start'); return 2
    c.sendall(b'{"id":1,"request":"subscribe","events":["began","moved","ended","cancelled","gesture"]}\n')
    time.sleep(1.5)              # the hold fires 400 ms after the landing (recorded pace)
    os.kill(p.pid, signal.SIGTERM)
    c.settimeout(10); buf = b''
    try:
        while b'"goodbye"' not in buf:
            d = c.recv(65536)
            if not d: break
            buf += d
    except socket.timeout:
        pass
    msgs = [json.loads(l) for l in buf.split(b'\n') if l.strip()]
    steps = [m for m in msgs if m.get('type') == 'gesture' and m.get('kind') == 'hold']
    for m in steps:
        print('hold %-6s time %s duration %s' % (m['phase'], m['time'], m['duration']))
    begin = next((m for m in steps if m['phase'] == 'begin'), None)
    close = next((m for m in steps if m['phase'] in ('end', 'cancel')), None)
    if begin is None or close is None:
        print('setup: expected a hold begin and its cancel, got', [(m['phase']) for m in steps]); return 2
    if close['time'] < begin['time'] or close['duration'] < begin['duration']:
        print('BROKEN: hold %s has time %d / duration %d, earlier than its begin (time %d / duration %d)'
              % (close['phase'], close['time'], close['duration'], begin['time'], begin['duration']))
        return 1
    print('HELD: the hold closes at or after its begin')
    return 0

if __name__ == '__main__':
    sys.exit(main())
