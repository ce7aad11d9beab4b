#!/usr/bin/env python3
"""A SIGHUP that takes a uid off the allow-lists: that uid's subscribed connection keeps receiving
every stroke.

README ("Install as a service"): on SIGHUP "the queue limits, maxLineLength, historyPageBytes,
maxClients, maxClientsPerUid, the allow-lists and the calibrations apply at once" (only `requests.*`
is said to apply "to clients that connect after it"); security.md ("Who may read strokes"):
"socket.allowUids / socket.allowGids ... admit only root and the listed uids and gids ... A refused
peer gets `forbidden` and is disconnected"; stroke data "is as sensitive as keystrokes".
Observed: uid 65534, subscribed before the reload, is not disconnected after allowUids: [1234]
is reloaded (a new connection from it is refused with `forbidden`); it goes on reading strokes."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

if os.geteuid() != 0 or not shutil.which('setpriv'): setup_error('needs root and setpriv to connect as uid 65534')
d = Daemon(config='socket:\n  mode: "0666"\n', replay=REC01)
os.chmod(d.dir, 0o755)
code = r'''
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.sendall(b'{"id":1,"request":"subscribe"}\n')
s.settimeout(0.2); buf = b''; t0 = time.time(); after = 0; marked = False
while time.time() - t0 < 7:
    try:
        x = s.recv(65536)
        if not x: print('EOF'); break
        if marked: after += x.count(b'\n')
        buf = (buf + x)[-2000:]
    except socket.timeout:
        pass
    if not marked and time.time() - t0 > 3: marked = True   # the reload happens at ~1.5 s
print('AFTER', after, b'forbidden' in buf, flush=True)
'''
p = subprocess.Popen(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'python3', '-c', code, d.sock],
                     stdout=subprocess.PIPE, text=True)
PROCS.append(p)
time.sleep(1.5)
open(d.cfg, 'w').write('socket:\n  mode: "0666"\n  allowUids: [1234]\n')
os.kill(d.p.pid, signal.SIGHUP)
out = p.communicate(timeout=20)[0]
probe = subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', 'python3', '-c',
                        'import socket,sys;s=socket.socket(socket.AF_UNIX);s.connect(sys.argv[1]);s.settimeout(3);print(s.recv(200))', d.sock],
                       capture_output=True, text=True, timeout=10).stdout
m = re.search(r'AFTER (\d+)', out)
after = int(m.group(1)) if m else -1
if 'forbidden' not in probe: setup_error('the reloaded allow-list did not refuse a new connection either: %r' % probe[:120])
if 'EOF' not in out and after > 0:
    broken('uid 65534 taken off the allow-list by SIGHUP: new connections get forbidden, but its subscribed '
           'connection stayed open and received %d more stream lines 1.5-5.5 s after the reload (README: the '
           'allow-lists "apply at once"; security.md: "A refused peer gets forbidden and is disconnected")' % after)
held('the revoked peer was disconnected at the reload')
