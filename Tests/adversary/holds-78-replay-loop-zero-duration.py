#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (README "Untrusted and long recordings"; protocol.md "the daemon never waits"): a looped recording is served without spinning. Case: --loop of a recording whose frames all carry the same timestamp (a round of zero duration).
d0 = tempfile.mkdtemp(prefix='adv11-', dir='/tmp'); rec = d0 + '/samet.evemu'
make_recording(rec, (b'5.000000', b'5.000000', b'5.000000'))
r = subprocess.run([BIN, 'replay', rec], capture_output=True, timeout=30)
print('strokes replay exit', r.returncode)
d = Daemon(replay=rec, loop=True, speed=1, wait=False)
hello = None
for i in range(50):
    if d.p.poll() is not None: break
    if os.path.exists(d.sock):
        try:
            s = socket.socket(socket.AF_UNIX); s.connect(d.sock); s.settimeout(5)
            hello = s.recv(200); break
        except socket.timeout:
            hello = b''; break
        except OSError:
            pass
    time.sleep(0.1)
time.sleep(3)
f = open('/proc/%d/stat' % d.p.pid).read().split() if d.alive() else None
cpu = (int(f[13]) + int(f[14])) / os.sysconf('SC_CLK_TCK') if f else -1
alive = d.alive()
d.stop()
print('hello %r cpu %.1f alive %s' % (hello[:40] if hello else hello, cpu, alive))
if not alive: broken('daemon died on a zero-duration looped recording (exit %s)' % d.p.returncode)
if not hello: broken('no hello: daemon stuck on a zero-duration looped recording (CPU %.1f s)' % cpu)
if cpu > 3: broken('zero-duration recording looped: the daemon spins (%.1f s CPU in ~4 s), serving still works' % cpu)
held('zero-duration loop served (CPU %.1f s)' % cpu)
