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

# The binary: the first argument (Scripts/adversary-test.sh), else $STROKES_BIN, else the debug build.
BIN = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('STROKES_BIN', os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../.build/debug/strokes'))
D = tempfile.mkdtemp(prefix='r10-', dir='/tmp')
import atexit, shutil
atexit.register(shutil.rmtree, D, True)
NAME = 'A' * (5 * 2**20)
YAML = '''version: 1
ndevices: 1
libinput: {version: "1.22.1", git: "unknown"}
system: {os: "debian:12", kernel: "6.1.0", dmi: "dmi:x"}
devices:
- node: /dev/input/event5
  evdev:
    name: "%s"
    id: [24, 0, 0, 0]
    codes: {0: [0, 1, 3], 1: [330], 3: [0, 1, 47, 53, 54, 57]}
    absinfo: {0: [0, 799, 0, 0, 0], 1: [0, 479, 0, 0, 0], 47: [0, 9, 0, 0, 0], 53: [0, 799, 0, 0, 0], 54: [0, 479, 0, 0, 0], 57: [0, 65535, 0, 0, 0]}
    properties: [1]
  events:
  - evdev:
    - [0, 1, 3, 47, 0]
    - [0, 1, 3, 57, 21]
    - [0, 1, 3, 53, 415]
    - [0, 1, 3, 54, 107]
    - [0, 1, 1, 330, 1]
    - [0, 1, 0, 0, 0]
  - evdev:
    - [0, 20000, 3, 57, -1]
    - [0, 20000, 1, 330, 0]
    - [0, 20000, 0, 0, 0]
''' % NAME
f = os.path.join(D, 'huge-name.yml'); open(f, 'w').write(YAML)
r = subprocess.run([BIN, 'replay', '--summary', f], capture_output=True, timeout=60)
print('replay --summary exit', r.returncode, r.stderr[:150])
if r.returncode == 65:
    print('refused with file:line: fixed'); sys.exit(0)
sock = os.path.join(D, 's.sock')
env = dict(os.environ, STROKES_SOCKET=sock)
d = subprocess.Popen(['timeout', '60', BIN, 'daemon', '--replay', f, '--loop', '--speed', '1', '--socket', sock],
                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        if os.path.exists(sock): break
        time.sleep(0.05)
    time.sleep(0.3)
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
finally:
    d.terminate(); d.wait()
sys.exit(0 if got_reply else 1)
