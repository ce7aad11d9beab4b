#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# A hostile (or broken) server sends `hello`, then one line that never ends. `strokes watch` and
# `strokes render --socket` kept all of it (1 GB in 3 s, growing; found on 42570d8); a line past
# 64 MiB is an error, as in `strokes gestures` (StrokeClient).
LIMIT_KB = 1024 * 1024  # 1 GiB: far past the 64 MiB bound
DIR = scratch_dir('advy-lines-')

def endless(c, send, stop):
    send(FAKE_HELLO)
    chunk = b"a" * (1 << 20)
    while not stop.is_set(): c.sendall(chunk)  # one line, never terminated

path = DIR + '/fake.sock'
FakeDaemon(path, endless)
for name, args in [('watch', ['watch', '--socket', path, '--json']),
                   ('render --socket', ['render', '--socket', path, '-o', DIR + '/out.svg'])]:
    p = subprocess.Popen([BIN] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    PROCS.append(p)
    peak = 0; t0 = time.time()
    while time.time() - t0 < 30 and p.poll() is None and peak <= LIMIT_KB:
        time.sleep(0.5)
        peak = max(peak, proc_rss_kb(p.pid))
    alive = p.poll() is None
    p.kill(); p.wait(timeout=5)
    err = p.stderr.read().decode(errors='replace')[:200]
    print('%s: peak RSS %d MB, alive %s, stderr %r' % (name, peak // 1024, alive, err))
    if peak > LIMIT_KB:
        broken('strokes %s kept an unterminated line without bound: RSS %d MB after %.1f s' % (name, peak // 1024, time.time() - t0))
    if alive or 'longer than 67108864 bytes' not in err:
        broken('strokes %s did not end with the line-length error: alive %s, %r' % (name, alive, err))
held('watch and render --socket stop a line at 64 MiB')
