#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: `daemon --replay FILE --loop` of a recording whose timestamps go backwards spins the event loop at
# 100% CPU and never serves anyone: connections are accepted but get no `hello`, requests no reply.
# `strokes replay` reads the same file without complaint (exit 0), so it is an accepted recording.
# Promise (README "Untrusted and long recordings": "A recording is untrusted input ... a file beyond a limit
# is refused with file:line"; protocol.md "Slow clients": "The daemon never waits for a client" / the
# single event loop serves everyone; security.md: "what it can try is to exhaust the daemon, and that is
# bounded"). A recording either is refused with file:line (daemon --replay exits 1) or is served.
d0 = tempfile.mkdtemp(prefix='adv08-', dir='/tmp'); rec = d0 + '/timeback.evemu'
make_recording(rec, (b'1.000000', b'0.000001', b'0.500000'))
r = subprocess.run([BIN, 'replay', rec], capture_output=True, timeout=30)
print('strokes replay exit', r.returncode, r.stdout.decode().splitlines()[-1][:80] if r.stdout else '')
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
cpu = 0
try:
    f = open('/proc/%d/stat' % d.p.pid).read().split(); cpu = (int(f[13]) + int(f[14])) / os.sysconf('SC_CLK_TCK')
except Exception: pass
alive = d.alive()
d.stop()
print('hello: %r; daemon CPU after ~7 s: %.1f s' % (hello[:60] if hello else hello, cpu))
if not alive: broken('daemon died serving a recording with backwards timestamps (exit %s)' % d.p.returncode)
if not hello: broken('daemon --replay --loop of a recording with backwards timestamps never greets clients (no hello in 5 s; CPU %.1f s used)' % cpu)
held('served')
