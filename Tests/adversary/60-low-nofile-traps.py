#!/usr/bin/env python3
"""Under a low RLIMIT_NOFILE (hard limit too, so the daemon cannot raise it) the binary must fail
with a clear error and an exit status, as it does at some limits (daemon at 18-19: 'cannot run:
... Too many open files', exit 1; replay at 9: exit 66). At other limits it dies of a trap
instead: 'NIOPosix/MultiThreadedEventLoopGroup.swift:139: Fatal error: Unexpected error while
running SelectableEventLoop: eventfd/timerfd_create/epoll_create: Too many open files',
SIGILL (exit 132), a crash backtrace on stderr and 'swift-backtrace: unable to fetch crash
info.' written to *stdout* (into the JSON/SVG output stream).
Exit 0 = correct, 1 = bug present."""
import os, sys, signal, subprocess, resource, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")

def run(args, n, timeout=10):
    def lim():
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    p = subprocess.Popen([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=lim)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.send_signal(signal.SIGTERM)
        try: out, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired: p.kill(); out, err = p.communicate()
        return "running", out, err
    return p.returncode, out, err

def main():
    d = tempfile.mkdtemp(prefix="strokes-nofile-")
    bad = []
    try:
        cases = [(["replay", "--summary", REC], n) for n in (5, 6, 8)] + \
                [(["describe", REC], 8)] + \
                [(["daemon", "--replay", REC, "--socket", os.path.join(d, f"s{n}.sock")], n) for n in (12, 16, 17)]
        for args, n in cases:
            rc, out, err = run(args, n, timeout=3 if args[0] == "daemon" else 10)
            crashed = (isinstance(rc, int) and (rc < 0 or rc >= 128)) or b"Fatal error" in err
            if crashed:
                first = err.decode(errors="replace").strip().splitlines()[0][:140] if err else ""
                bad.append(f"nofile={n} strokes {args[0]}: exit {rc} ({first!r})"
                           + ("; stdout got " + repr(out[:60]) if out and b"backtrace" in out else ""))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if bad:
        print("BUG: low RLIMIT_NOFILE crashes instead of a clear error:")
        for b in bad: print("  -", b)
        return 1
    print("OK: clear errors under a low RLIMIT_NOFILE"); return 0

if __name__ == "__main__":
    sys.exit(main())
