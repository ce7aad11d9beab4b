#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md Transport, security.md): socket mode 0660 by default (socket.mode); with
# socket.allowUids/allowGids only root and the listed uids/gids may connect; a refused peer gets
# `forbidden` and is disconnected; maxClientsPerUid applies per uid.
d = Daemon(replay=REC03)
mode = os.stat(d.sock).st_mode & 0o777
print('default mode %o' % mode)
if mode != 0o660: broken('socket mode %o, documented 0660' % mode)
d.stop()
d = Daemon(config='socket:\n  mode: "0666"\n  allowUids: [4321]\n  allowGids: [4242]\n', replay=REC03)
os.chmod(d.dir, 0o755)
def as_user(uid, gid, groups):
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups(groups); os.setgid(gid); os.setuid(uid)
            s = socket.socket(socket.AF_UNIX); s.connect(d.sock); s.settimeout(3)
            data = b''
            try:
                while True:
                    x = s.recv(4096)
                    if not x: break
                    data += x
            except socket.timeout:
                data += b'<open>'
            os.write(w, data[:2000])
        except Exception as e:
            os.write(w, ('EXC %s' % e).encode())
        os._exit(0)
    os.close(w); out = b''
    while True:
        x = os.read(r, 4096)
        if not x: break
        out += x
    os.waitpid(pid, 0)
    return out.decode('utf-8', 'replace')
o1 = as_user(65534, 65534, [])
o2 = as_user(4321, 65534, [])
o3 = as_user(65534, 65534, [4242])
o4 = as_user(65534, 4242, [])
print('nobody:', o1[:150]); print('uid4321:', o2[:80]); print('suppl 4242:', o3[:80]); print('primary 4242:', o4[:80])
d.stop()
if '"forbidden"' not in o1 or '<open>' in o1: broken('unlisted uid not refused with forbidden + close: %r' % o1[:200])
if '"hello"' not in o2: broken('listed uid refused: %r' % o2[:200])
if '"hello"' not in o3: broken('supplementary gid 4242 refused: %r' % o3[:200])
if '"hello"' not in o4: broken('primary gid 4242 refused: %r' % o4[:200])
held('socket mode 0660, allow-lists')
