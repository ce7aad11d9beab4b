#!/usr/bin/env python3
"""A libinput-record YAML recording may give its device a name of any length (evemu/evtest lines
are capped at 64 KiB; YAML scalars are not). Served by `strokes daemon --replay`, a 5 MiB name
makes every `{"request":"devices"}` end in `{"type":"goodbye","reason":"slowClient"}` (the reply
alone exceeds queue.disconnectAfterBytes, 4 MiB), so no client can list devices any more and
`strokes render --socket` fails ("said goodbye (slowClient) before answering", exit 69); the name
is also copied whole into `describe`, the daemon's log line and the SVG legend.
Expected (README "Untrusted and long recordings": "Every count or size its header declares is
checked before anything is allocated from it ... a file beyond a limit is refused with
file:line"): the name bounded (refused with file:line, or cut), and a `devices` reply always
served. Exits 1 while the bug is present, 0 when fixed."""
import os, socket, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (BIN, scratch_dir, the recordings' builders)

D = scratch_dir('r10-')
NAME = 'A' * (5 * 2**20)
YAML = libinput_tap(NAME)
f = os.path.join(D, 'huge-name.yml'); open(f, 'w').write(YAML)
r = subprocess.run([BIN, 'replay', '--summary', f], capture_output=True, timeout=60)
print('replay --summary exit', r.returncode, r.stderr[:150])
if r.returncode == 65:
    print('refused with file:line: fixed'); sys.exit(0)
sock = Daemon(replay=f, loop=True, speed=1).sock   # killed when the script ends
s = socket.socket(socket.AF_UNIX); s.connect(sock); s.settimeout(5)
s.sendall(b'{"id":2,"request":"devices"}\n')
buf = b''
try:
    while True:
        x = s.recv(1 << 20)
        if not x: break
        buf += x
except socket.timeout: pass
lines = buf.split(b'\n')
got_reply = any(l.startswith(b'{"type":"reply"') for l in lines)
goodbye = [l for l in lines if l.startswith(b'{"type":"goodbye"')]
print('devices reply received:', got_reply, ' goodbye:', goodbye[:1])
sys.exit(0 if got_reply else 1)
