#!/usr/bin/env python3
import os, sys, glob
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# `strokes render -o out.png` writes a temporary SVG, runs rsvg-convert into `out.png.PID.tmp` and
# renames it. SIGTERM while rsvg-convert ran left both files and the helper running (the tenth
# round's note, on 4fb0361). Now the signal removes both, ends the helper with the same signal,
# and ends render as SIGTERM's default would.
if shutil.which('rsvg-convert') is None: setup_error('rsvg-convert is not installed')
DIR = scratch_dir('advy-png-signal-')
TMP = DIR + '/tmp'; os.mkdir(TMP)
# A large picture, so that rsvg-convert takes a while: 01, many times over (stroke ids differ).
rec = DIR + '/long.evemu'
with open(REC01) as f: lines = f.read().splitlines()
header = [l for l in lines if not l.startswith('E:')]
events = [l for l in lines if l.startswith('E:')]
t0 = float(events[0].split()[1])
span = float(events[-1].split()[1]) - t0 + 1
with open(rec, 'w') as f:
    f.write('\n'.join(header) + '\n')
    for k in range(40):
        for l in events:
            p = l.split()
            f.write('E: %.6f %s\n' % (float(p[1]) + k * span, ' '.join(p[2:])))
out = DIR + '/out.png'
env = dict(os.environ, TMPDIR=TMP)
p = subprocess.Popen([BIN, 'render', rec, '-o', out], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
PROCS.append(p)
helper = None
t = time.time()
while time.time() - t < 20 and helper is None and p.poll() is None:
    r = subprocess.run(['pgrep', '-P', str(p.pid), 'rsvg-convert'], capture_output=True, text=True)
    if r.stdout.strip(): helper = int(r.stdout.split()[0])
    else: time.sleep(0.01)
if helper is None: setup_error('rsvg-convert never ran (render ended %s)' % p.poll())
time.sleep(0.2)
os.kill(p.pid, signal.SIGTERM)
p.wait(timeout=10)
time.sleep(0.5)
left = sorted(os.path.basename(x) for x in glob.glob(TMP + '/*') + glob.glob(DIR + '/out.png*'))
alive = os.path.exists('/proc/%d' % helper) and 'Z' not in open('/proc/%d/stat' % helper).read().split()[2]
if alive:
    os.kill(helper, signal.SIGKILL)
if left or alive or p.returncode != -signal.SIGTERM:
    broken('SIGTERM during rsvg-convert: render ended %s, left %s, helper still running: %s' % (p.returncode, left, alive))
held('SIGTERM during rsvg-convert: render ended by the signal, no file left, rsvg-convert ended')
