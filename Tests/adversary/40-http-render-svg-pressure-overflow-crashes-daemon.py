#!/usr/bin/env python3
"""A recording (or device) whose one stroke reports pressure -1 then 2147483647 crashes
`strokes daemon --http` with SIGILL (Swift arithmetic overflow in SVGRenderer.Panel.lineWidths)
as soon as anyone does GET /render.svg. Exits 1 while the bug is present, 0 when fixed.
Expected (README "Watch in a browser / HTTP", docs/security.md "What a client can and cannot do"):
GET /render.svg returns an SVG; no client request can take the daemon down."""
import os, subprocess, socket, sys, time, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r01-')
I32MAX = 2**31 - 1

def recording():
    # MT touchscreen: ABS_X/Y, MT_SLOT, MT_POSITION_X/Y, MT_TRACKING_ID, MT_PRESSURE (0..255); BTN_TOUCH; INPUT_PROP_DIRECT
    h = ('# EVEMU 1.3\nN: pressure overflow\nI: 0003 056a 005d 0005\nP: 02 00 00 00 00 00 00 00\n'
         'B: 00 0b 00 00 00 00 00 00 00\n')
    for i in range(12):
        h += 'B: 01 00 00 00 00 00 00 00 00\n' if i != 5 else 'B: 01 00 04 00 00 00 00 00 00\n'
    h += 'B: 02 00 00 00 00 00 00 00 00\nB: 03 03 00 00 00 00 80 60 06\n'
    h += ('A: 00 0 799 0 0 0\nA: 01 0 479 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 799 0 0 0\nA: 36 0 479 0 0 0\n'
          'A: 39 0 65535 0 0 0\nA: 3a 0 255 0 0 0\n')
    h += ('E: 0.000001 0003 002f 0\nE: 0.000001 0003 0039 21\nE: 0.000001 0003 0035 100\nE: 0.000001 0003 0036 100\n'
          'E: 0.000001 0003 003a -1\nE: 0.000001 0001 014a 1\nE: 0.000001 0000 0000 0\n'
          'E: 0.010001 0003 0035 200\nE: 0.010001 0003 003a %d\nE: 0.010001 0000 0000 0\n'
          'E: 0.020001 0003 0039 -1\nE: 0.020001 0001 014a 0\nE: 0.020001 0000 0000 0\n') % I32MAX
    return h

rec = os.path.join(D, 'pressure.evemu')
open(rec, 'w').write(recording())
sock, http = os.path.join(D, 's.sock'), os.path.join(D, 'h.sock')
env = dict(os.environ, STROKES_SOCKET=sock)
err = open(os.path.join(D, 'daemon.err'), 'wb')
p = subprocess.Popen(['timeout', '60', BIN, 'daemon', '--replay', rec, '--no-loop', '--speed', '0',
                      '--socket', sock, '--http', http], env=env, stdout=subprocess.DEVNULL, stderr=err)
try:
    for _ in range(200):
        if os.path.exists(http) or p.poll() is not None: break
        time.sleep(0.05)
    time.sleep(0.3)
    if p.poll() is not None:
        print('daemon did not start:', p.returncode); sys.exit(2)
    s = socket.socket(socket.AF_UNIX); s.settimeout(10); s.connect(http)
    s.sendall(b'GET /render.svg HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')
    resp = b''
    try:
        while True:
            d = s.recv(65536)
            if not d: break
            resp += d
    except (socket.timeout, ConnectionResetError): pass
    time.sleep(1.0)
    rc = p.poll()
    status = resp.split(b'\r\n', 1)[0]
    print('HTTP status line:', status, ' daemon alive:', rc is None, ' exit:', rc)
    if rc is not None or not status.startswith(b'HTTP/1.1 200'):
        print('BUG: daemon died (or no SVG) after GET /render.svg; see', err.name)
        sys.exit(1)
    print('ok'); sys.exit(0)
finally:
    if p.poll() is None:
        p.terminate(); p.wait()
