#!/usr/bin/env python3
"""`strokes render FILE -o out.png` when the PNG cannot be written completely (here: RLIMIT_FSIZE,
the same as a full disk): SVG output is written to a temporary file and renamed, so a failed
render leaves the previous out.svg intact; PNG output is handed to rsvg-convert with the final
path, so a failed render truncates/overwrites the previous out.png with a partial file (exit 70).
Also checks that an interrupted PNG render (SIGTERM) leaves no temporary SVG and no orphaned
rsvg-convert behind.
Exit 0 = correct, 1 = bug present, 77 = skipped (no rsvg-convert)."""
import os, sys, shutil, subprocess, tempfile, resource, hashlib, time, signal, glob

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")

def main():
    if not shutil.which("rsvg-convert"):
        print("SKIP: rsvg-convert not installed"); return 77
    d = tempfile.mkdtemp(prefix="strokes-png-")
    tmpdir = os.path.join(d, "tmpdir"); os.mkdir(tmpdir)
    env = dict(os.environ, TMPDIR=tmpdir)
    problems = []
    try:
        good = os.path.join(d, "good.png")
        r = subprocess.run([BIN, "render", REC, "-o", good], env=env, capture_output=True, timeout=30)
        if r.returncode != 0:
            print("setup failed:", r.stderr.decode()); return 2
        png_size = os.path.getsize(good)
        svg = subprocess.run([BIN, "render", REC, "-o", "-"], env=env, capture_output=True, timeout=30).stdout
        if not (len(svg) < png_size):
            print("setup: SVG not smaller than PNG; cannot place the limit"); return 2
        limit = (len(svg) + png_size) // 2      # the temp SVG fits, the PNG does not
        out = os.path.join(d, "out.png")
        shutil.copy(good, out)
        before = hashlib.sha256(open(out, "rb").read()).hexdigest()
        def lim():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        r = subprocess.run([BIN, "render", REC, "-o", out], env=env, capture_output=True,
                           timeout=30, preexec_fn=lim)
        after = hashlib.sha256(open(out, "rb").read()).hexdigest() if os.path.exists(out) else None
        if r.returncode == 0:
            problems.append("PNG render that could not write its output exited 0")
        if after != before:
            size = os.path.getsize(out) if os.path.exists(out) else None
            problems.append(f"failed PNG render (exit {r.returncode}: {r.stderr.decode().strip()[:120]!r}) "
                            f"destroyed the previous out.png ({png_size} bytes -> {size} bytes); "
                            f"the SVG path keeps the old file on the same failure")
        # interrupted render: fake rsvg-convert that takes long
        fb = os.path.join(d, "bin"); os.mkdir(fb)
        with open(os.path.join(fb, "rsvg-convert"), "w") as f:
            f.write("#!/bin/sh\nexec sleep 20\n")
        os.chmod(os.path.join(fb, "rsvg-convert"), 0o755)
        env2 = dict(env, PATH=fb + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
        p = subprocess.Popen([BIN, "render", REC, "-o", os.path.join(d, "int.png")], env=env2,
                             stderr=subprocess.PIPE)
        kids = []
        for _ in range(50):
            time.sleep(0.1)
            kids = subprocess.run(["ps", "--ppid", str(p.pid), "-o", "pid="], capture_output=True,
                                  text=True).stdout.split()
            if kids: break
        p.send_signal(signal.SIGTERM)
        try: p.communicate(timeout=10)
        except subprocess.TimeoutExpired: p.kill(); p.communicate()
        time.sleep(0.2)
        alive = [k for k in kids if os.path.exists(f"/proc/{k}")]
        left = os.listdir(tmpdir)
        if alive:
            # Left (REPORT.md, tenth round): reported, not a failure.
            print(f"noted: SIGTERM to a PNG render left its rsvg-convert child running (pid {alive})")
        if left:
            print(f"noted: SIGTERM to a PNG render left its temporary SVG in TMPDIR: {left}")
        for k in alive:
            try: os.kill(int(k), signal.SIGKILL)
            except ProcessLookupError: pass
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if problems:
        print("BUG:"); [print("  -", x) for x in problems]; return 1
    print("OK"); return 0

if __name__ == "__main__":
    sys.exit(main())
