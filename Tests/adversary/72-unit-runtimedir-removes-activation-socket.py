#!/usr/bin/env python3
"""Static check of the shipped units (systemd is not PID 1 here, so this reads the unit files).

strokes.socket: "ListenStream=/run/strokes/strokes.sock"; strokes.service: "RuntimeDirectory=strokes"
with no RuntimeDirectoryPreserve= (default no) and "Restart=on-failure". systemd.exec(5):
RuntimeDirectory= directories are "created ... when the unit is started and removed when the unit
is stopped" (RuntimeDirectoryPreserve=restart exists to keep them across restarts). So every stop or
restart of strokes.service (systemctl restart, Restart=on-failure, the watchdog, MemoryMax) removes
/run/strokes and with it the socket file that strokes.socket still listens on: clients get ENOENT until
strokes.socket itself is restarted (a known pitfall: systemd #7274, #8635, nixpkgs #35690).
The same directory is chown-ed to the DynamicUser at each start, socket included (systemd PR #32503),
which can undo SocketGroup=strokes.
Docs: README "strokes.socket lets systemd own /run/strokes/strokes.sock (socket activation)";
strokes.service "with strokes.socket enabled, systemd owns the listening socket and starts the
daemon on the first connection"; protocol.md "Under systemd socket activation the same path is owned
by systemd"."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

svc = unit('strokes.service')
sock = unit('strokes.socket')
listen = [v for v in sock.get('ListenStream', []) if v.startswith('/')]
rdirs = ' '.join(svc.get('RuntimeDirectory', [])).split()
preserve = (svc.get('RuntimeDirectoryPreserve') or ['no'])[-1]
hit = [p for p in listen for r in rdirs if os.path.dirname(p) == '/run/' + r or p.startswith('/run/' + r + '/')]
if hit and preserve not in ('yes', 'restart'):
    broken('strokes.socket listens on %s inside strokes.service\'s RuntimeDirectory=%s with '
           'RuntimeDirectoryPreserve=%s: every stop/restart of the service (Restart=%s) removes the '
           'socket file strokes.socket owns, so clients cannot connect after it although the socket unit '
           'is still "listening" (README: "strokes.socket lets systemd own /run/strokes/strokes.sock")'
           % (hit[0], ' '.join(rdirs), preserve, (svc.get('Restart') or ['no'])[-1]))
held('the activation socket is outside a removed RuntimeDirectory (or it is preserved)')
