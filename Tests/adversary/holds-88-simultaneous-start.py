#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (README "Limits under abuse", architecture.md): one daemon per socket. Two daemons
# started together on a path with a stale socket file: exactly one serves, the other exits 69.
# Before the lock (PATH.lock), in about a quarter of the trials both ran: each judged the stale
# file (or the other's socket, bound but not yet listening) stale, and the second's unlink took
# the first's socket away from it. Found on e8b3944; probabilistic, so twelve trials.
bad = []
for trial in range(12):
    d = tempfile.mkdtemp(prefix='advrace-', dir='/tmp')
    path = d + '/s.sock'
    s = socket.socket(socket.AF_UNIX); s.bind(path); s.close()  # a stale socket file
    ps = [subprocess.Popen([BIN, 'daemon', '--socket', path, '--config', '/dev/null', '--replay', REC03, '--loop'],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
    try:
        t0 = time.time()
        # Wait until one has exited, or both are still up after 4 s (then both took the path).
        while time.time() - t0 < 4 and all(p.poll() is None for p in ps): time.sleep(0.05)
        time.sleep(0.3)
        alive = [p for p in ps if p.poll() is None]
        codes = [p.returncode for p in ps if p.poll() is not None]
        served = False
        try:
            c = Client(path, timeout=5); r = c.request({'id': 1, 'request': 'ping'}); served = r.get('type') == 'reply'; c.close()
        except Exception:
            pass
        if len(alive) != 1 or codes != [69] or not served:
            bad.append('trial %d: %d running, exit codes %s, socket served %s' % (trial, len(alive), codes, served))
    finally:
        for p in ps:
            if p.poll() is None: p.send_signal(signal.SIGTERM)
        for p in ps:
            try: p.wait(10)
            except subprocess.TimeoutExpired: p.kill(); p.wait()
        shutil.rmtree(d, ignore_errors=True)
print('\n'.join(bad) or 'every trial: one served, the other exited 69')
if bad: broken('two daemons started together on one path: %s' % bad[0])
held('two daemons started together: one serves, the other exits 69 (12 trials)')
