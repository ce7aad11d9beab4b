#!/usr/bin/env python3
"""Socket activation with a TCP socket (strokes.socket edited to ListenStream=PORT, or any
manager passing an AF_INET listener): the daemon serves it, to any peer, with no credentials.

protocol.md ("Transport"): "A Unix domain stream socket ... mode 0660, group strokes";
security.md ("Who may read strokes"): members of `strokes`, root, the allow-lists; for every
other address the HTTP side refuses to start without a token ("A listener on any other address
needs http.token: the daemon refuses to start without it (exit 78 ...)"). The unit's
RestrictAddressFamilies=AF_UNIX / PrivateNetwork=yes do not apply to a socket systemd passes.
Observed: `systemd-socket-activate -l 127.0.0.1:PORT strokes daemon ...` logs "using the socket
systemd passed" and greets and streams strokes to a TCP peer (logged as uid 4294967295)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

if not shutil.which('systemd-socket-activate'): setup_error('systemd-socket-activate missing')
d = scratch_dir('a96-'); cfg = d + '/c.yaml'; open(cfg, 'w').write('')
s0 = socket.socket(); s0.bind(('127.0.0.1', 0)); port = s0.getsockname()[1]; s0.close()
p = subprocess.Popen(['systemd-socket-activate', '-l', '127.0.0.1:%d' % port, BIN, 'daemon', '--config', cfg,
                      '--replay', REC01], stdout=subprocess.DEVNULL, stderr=open(d + '/err', 'wb'))
PROCS.append(p)
s = None
for _ in range(100):
    try: s = socket.create_connection(('127.0.0.1', port), timeout=1); break
    except OSError: time.sleep(0.05)
if s is None: setup_error('no listener')
s.settimeout(5)
buf = b''
try:
    while buf.count(b'\n') < 1:
        x = s.recv(65536)
        if not x: break
        buf += x
    s.sendall(b'{"id":1,"request":"subscribe"}\n')
    t = time.time()
    while b'"began"' not in buf and b'"moved"' not in buf and time.time() - t < 8:
        x = s.recv(65536)
        if not x: break
        buf += x
except OSError:
    pass
time.sleep(0.2)
rc = p.poll()
if b'"hello"' in buf and (b'"began"' in buf or b'"moved"' in buf):
    broken('a TCP listener passed by socket activation is served: a TCP peer on 127.0.0.1:%d got hello and stroke '
           'events with no credentials (protocol.md: "A Unix domain stream socket ... group strokes"; security.md '
           '"Who may read strokes"; other addresses need a token on the HTTP side)' % port)
held('the TCP socket was refused (exit %s): %r' % (rc, buf[:120]))
