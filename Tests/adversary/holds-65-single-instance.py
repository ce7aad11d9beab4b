#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (README "Limits under abuse", security.md): a daemon started on the socket of a running one
# exits 69 and the first keeps serving; a stale socket file is replaced; at exit the file is removed
# only if it is still the one this daemon bound; a daemon holds PATH.lock while it runs, so a
# second one is refused even when the first one's file was removed.
a = Daemon(replay=REC03)
ino = os.stat(a.sock).st_ino
p = subprocess.run([BIN, 'daemon', '--socket', a.sock, '--config', a.cfg, '--replay', REC03], capture_output=True, timeout=20)
print('second daemon rc', p.returncode, p.stderr.decode()[-300:])
if p.returncode != 69: broken('second daemon on a live socket exited %d, not 69' % p.returncode)
if os.stat(a.sock).st_ino != ino: broken('second daemon replaced the live socket file')
r = Client(a.sock).request({'id': 1, 'request': 'ping'})
if not r or r.get('type') != 'reply': broken('first daemon not serving after the second tried')
# A's file removed: while A holds PATH.lock, B is refused (69) and does not take the path
os.unlink(a.sock)
try:
    p = subprocess.run([BIN, 'daemon', '--socket', a.sock, '--config', a.cfg, '--replay', REC03], capture_output=True, timeout=20)
except subprocess.TimeoutExpired:
    broken('a daemon took the path of a running one whose socket file was removed (it served on, not exit 69)')
if p.returncode != 69: broken('a daemon on the path of a running one whose file was removed exited %d, not 69' % p.returncode)
if os.path.exists(a.sock): broken('a refused daemon left a socket file')
# replaced socket file: A's file and lock removed (a cleaner of /tmp), B binds; stopping A must
# leave B's file
os.unlink(a.sock + '.lock')
bp = subprocess.Popen([BIN, 'daemon', '--socket', a.sock, '--config', a.cfg, '--replay', REC03], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for i in range(100):
    if os.path.exists(a.sock): break
    time.sleep(0.05)
time.sleep(0.5)
rc = a.stop()
if not os.path.exists(a.sock): broken('stopping daemon A removed daemon B\'s socket file')
r = Client(a.sock).request({'id': 1, 'request': 'ping'})
if not r or r.get('type') != 'reply': broken('daemon B not serving after A stopped')
bp.send_signal(signal.SIGTERM); bp.wait(10)
if os.path.exists(a.sock): broken('socket not removed at B exit')
# stale socket
st = os.path.join(a.dir, 'stale.sock')
s = socket.socket(socket.AF_UNIX); s.bind(st); s.close()
p = subprocess.Popen([BIN, 'daemon', '--socket', st, '--config', a.cfg, '--replay', REC03], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
ok = False
for i in range(100):
    try:
        x = Client(st); ok = True; break
    except Exception:
        time.sleep(0.1)
p.send_signal(signal.SIGTERM); p.wait(10)
if not ok: broken('stale socket file not replaced (daemon rc %s)' % p.returncode)
held('second daemon exits 69, first keeps its socket; stale socket replaced; foreign socket file left in place')
