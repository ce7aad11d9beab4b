#!/usr/bin/env python3
"""HELD check: docs/architecture.md, "Lifecycle": "SIGTERM, SIGINT and SIGHUP are trapped before
the socket is bound, so a client that can connect cannot kill the daemon with a signal sent before
the group runs." For N starts: connect the moment the socket accepts, then send SIGHUP: the daemon
must stay up and serve; send SIGTERM instead: it must exit 0 and remove its socket.
Run: python3 holds-02-startup-signals.py /path/to/strokes [N]   (exit 0 HELD, 1 BROKEN, 2 setup)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC03
N = int(sys.argv[2]) if len(sys.argv) > 2 else 10

def start():
    """A daemon, and the first connection it accepts (tried without a pause, to be first)."""
    d = Daemon(replay=REC, loop=False, speed=0, wait=False)
    return d.p, d.sock, d.accepting(30, 0)

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC): print('setup: missing files'); return 2
    fails = []
    for i in range(N):
        sig = signal.SIGHUP if i % 2 == 0 else signal.SIGTERM
        p, sock, c = start()
        if c is None: print('setup: daemon never accepted'); return 2
        os.kill(p.pid, sig)
        if sig == signal.SIGHUP:
            time.sleep(1)
            if p.poll() is not None: fails.append('run %d: SIGHUP right after the first accept killed it (rc %s)' % (i, p.returncode))
            else:
                c2 = socket.socket(socket.AF_UNIX); c2.connect(sock); c2.settimeout(5)
                if not c2.recv(20).startswith(b'{"type":"hello"'): fails.append('run %d: no hello after SIGHUP' % i)
                c2.close()
        else:
            try: rc = p.wait(15)
            except subprocess.TimeoutExpired: rc = 'still running'
            if rc != 0: fails.append('run %d: SIGTERM right after the first accept: exit %s' % (i, rc))
            elif os.path.exists(sock): fails.append('run %d: socket left behind' % i)
        c.close()
        if p.poll() is None: p.kill(); p.wait()
    if fails: print('BROKEN: ' + '; '.join(fails)); return 1
    print('HELD: %d starts: SIGHUP at the first accept never killed the daemon; SIGTERM there exited 0 and removed the socket' % N)
    return 0

if __name__ == '__main__':
    sys.exit(main())
