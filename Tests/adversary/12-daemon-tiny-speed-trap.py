#!/usr/bin/env python3
"""strokes daemon --replay with a small positive speed (--speed 1e-15, or devices.speed: 1e-15 in
the configuration) dies at start with a Swift runtime trap (SIGILL, exit 132), although the
daemon's own validation accepts every speed "from 0 (as fast as possible) to 1000" and the README
promises that an invalid configuration value stops the daemon with file:line and exit 78.

Run: python3 02-daemon-tiny-speed-trap.py /path/to/strokes
Exit 1 = BROKEN, 0 = HELD, 2 = setup error.
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
REC = REC03

def run(args, config=''):
    d = Daemon(config=config, replay=None, extra=args, wait=False)
    c = d.accepting(10, 0.1); served = False
    if c is not None:
        c.settimeout(5)
        try: served = c.recv(10).startswith(b'{"type":"h')
        except OSError: pass
        c.close()
    time.sleep(0.5)
    rc = d.p.poll()
    if rc is None: d.stop()
    trap = next((l.strip() for l in d.stderr().splitlines() if 'runtime failure' in l), '')
    return rc, served, trap

def main():
    if not os.path.exists(BIN) or not os.path.exists(REC):
        print('setup: binary or recording missing'); return 2
    rc, served, trap = run(['--replay', REC, '--speed', '0.001'])
    if rc is not None or not served:
        print('setup: control daemon (--speed 0.001) did not serve: rc', rc); return 2
    broken = []
    rc, served, trap = run(['--replay', REC, '--speed', '1e-15'])
    print('--speed 1e-15: exit %s served %s %s' % (rc, served, trap))
    if rc is not None and (rc < 0 or rc == 132 or trap): broken.append('--speed 1e-15 (exit %s)' % rc)
    rc, served, trap = run([], 'devices:\n  replay: %s\n  speed: 1e-15\n' % REC)
    print('devices.speed: 1e-15: exit %s served %s %s' % (rc, served, trap))
    if rc is not None and (rc < 0 or rc == 132 or trap): broken.append('devices.speed: 1e-15 (exit %s)' % rc)
    if broken:
        print('BROKEN: the daemon crashes with a Swift runtime trap at start for an accepted speed: ' + '; '.join(broken))
        return 1
    print('HELD: a tiny positive speed is either served or refused cleanly (64/78)')
    return 0

if __name__ == '__main__':
    sys.exit(main())
