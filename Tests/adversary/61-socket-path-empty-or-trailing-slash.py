#!/usr/bin/env python3
"""`strokes daemon --socket ""` and `--socket DIR/NEW/` (trailing slash): the daemon should refuse
the path with a clear message and leave the file system as it was. Instead:
 - `--socket ""` creates a stray `.lock` file in the current directory and stops with the cryptic
   'cannot run: chmod : No such file or directory';
 - `--socket /some/dir/new.sock/` creates the directory `new.sock/` (and `new.sock/.lock`), then
   says '/some/dir/new.sock/ exists and is not a socket: not replacing it' about the directory it
   has just made itself.
Exit 0 = correct, 1 = bug present."""
import os, sys, subprocess, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu")

def run(sock, cwd):
    p = subprocess.Popen([BIN, "daemon", "--replay", REC, "--socket", sock], cwd=cwd,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = p.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        p.terminate()
        try: _, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired: p.kill(); _, err = p.communicate()
        return "ran", err.decode(errors="replace")
    return p.returncode, err.decode(errors="replace")

def crit(err):
    return [l for l in err.splitlines() if "critical" in l or "cannot" in l][:1]

def main():
    d = tempfile.mkdtemp(prefix="strokes-sockpath-")
    bugs = []
    try:
        c1 = os.path.join(d, "cwd"); os.mkdir(c1)
        rc, err = run("", c1)
        left = os.listdir(c1)
        if left:
            bugs.append(f"--socket '' (exit {rc}, {crit(err)}) left {left} in the working directory")
        if "chmod :" in err:
            bugs.append(f"--socket '' error message does not say the path is empty: {crit(err)}")
        c2 = os.path.join(d, "cwd2"); os.mkdir(c2)
        target = os.path.join(c2, "new.sock") + "/"
        rc, err = run(target, c2)
        if os.path.isdir(target):
            bugs.append(f"--socket {target!r} (exit {rc}) created the directory new.sock/ "
                        f"(containing {os.listdir(target)}) and then said {crit(err)}")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if bugs:
        print("BUG:"); [print("  -", b) for b in bugs]; return 1
    print("OK"); return 0

if __name__ == "__main__":
    sys.exit(main())
