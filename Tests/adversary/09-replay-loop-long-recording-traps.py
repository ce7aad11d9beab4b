#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# FINDING: `daemon --replay FILE --loop` traps (SIGILL) at the end of the first round when the recording
# spans a very long time (here 9 223 372 036 853 s between two frames: under the documented limit
# "event time | seconds < 2^63 / 10^6", and `strokes replay` reads it, exit 0). --speed 0 reaches the end
# at once; at any speed the daemon dies when the round ends.
# Promise (README "Untrusted and long recordings" / decoder.md "Recordings": a recording is untrusted input;
# a file beyond a limit is refused with file:line, exit 1 for daemon --replay; times are microseconds in an
# Int64, seconds < 2^63/10^6 accepted).
d0 = tempfile.mkdtemp(prefix='adv09-', dir='/tmp'); rec = d0 + '/timejump.evemu'
make_recording(rec, (b'0.000001', b'9223372036853.000000', b'9223372036853.100000'))
r = subprocess.run([BIN, 'replay', rec], capture_output=True, timeout=30)
print('strokes replay exit', r.returncode)
d = Daemon(replay=rec, loop=True, speed=0, wait=False)
try:
    d.p.wait(5)
except subprocess.TimeoutExpired:
    pass
rc = d.p.poll()
err = d.stderr()
d.stop()
if rc is not None and rc != 1:
    broken('daemon --replay --loop --speed 0 of an accepted recording died with %s (%s); strokes replay exit %d' % (rc, 'SIGILL, a Swift trap' if rc == -4 else 'signal', r.returncode))
if rc == 1 and ':' in err: held('refused with an error')
held('served')
