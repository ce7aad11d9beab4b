#!/usr/bin/env python3
"""`strokes replay FILE` whose stdout reader goes away, with SIGPIPE ignored (as under systemd's
default IgnoreSIGPIPE=yes, or a parent that ignores it): the write fails with EPIPE, the binary
stops and exits 0 with no message: a truncated event stream is indistinguishable from a complete
one. (Writing to /dev/full gives 'cannot write' and exit 74, so write errors are meant to count.)
Exit 0 = correct (non-zero exit on EPIPE), 1 = bug present."""
import os, sys, signal, subprocess

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")

def run(cmd):
    r, w = os.pipe()
    def child_setup():
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    p = subprocess.Popen(cmd, stdout=w, stderr=subprocess.PIPE, preexec_fn=child_setup,
                         restore_signals=False)
    os.close(w)
    head = os.read(r, 100)
    os.close(r)           # the consumer goes away after 100 bytes
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill(); p.wait()
        return None, b"", head
    return p.returncode, err, head

def main():
    rc, err, head = run([BIN, "replay", REC])
    if rc is None:
        print("BUG: replay hung after its stdout reader went away"); return 1
    if not head:
        print("setup problem: replay printed nothing"); return 2
    if rc == 0:
        print(f"BUG: replay's stdout reader closed after 100 bytes (SIGPIPE ignored): exit 0, "
              f"stderr {err.decode(errors='replace')!r}: a truncated stream looks complete")
        return 1
    print(f"OK: replay exits {rc} on EPIPE ({err.decode(errors='replace').strip()!r})")
    return 0

if __name__ == "__main__":
    sys.exit(main())
