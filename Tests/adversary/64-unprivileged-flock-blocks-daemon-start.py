#!/usr/bin/env python3
"""The daemon's single-instance lock `PATH.lock` (README.md:444-446) is created world-readable
(0644 under umask 022; 0660 under the unit's UMask=0007, so group `strokes`, i.e. the clients,
can open it). flock(2) works on a read-only descriptor, so any local user who can open the file
(docs/security.md: socket users are local users the daemon does not trust) can hold LOCK_EX on
it, and then the daemon (root) refuses to start: exit 69, 'another daemon holds PATH.lock' -
a restart after a crash, `systemctl restart`, or a boot with a leftover runtime dir is blocked
for as long as that user likes.
Exit 0 = correct, 1 = bug present, 77 = skipped (needs root to act as another user)."""
import os, sys, time, fcntl, signal, subprocess, tempfile, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu")
NOBODY = 65534

def daemon(sock, wait=3.0):
    p = subprocess.Popen([BIN, "daemon", "--replay", REC, "--socket", sock],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _, err = p.communicate(timeout=wait)
        return p.returncode, err.decode(errors="replace")
    except subprocess.TimeoutExpired:
        p.terminate()
        try: _, err = p.communicate(timeout=5)
        except subprocess.TimeoutExpired: p.kill(); _, err = p.communicate()
        return "running", err.decode(errors="replace")

def main():
    if os.geteuid() != 0:
        print("SKIP: needs root"); return 77
    d = tempfile.mkdtemp(prefix="strokes-flock-")
    os.chmod(d, 0o755)
    sock = os.path.join(d, "s.sock")
    holder = None
    try:
        old = os.umask(0o022)
        rc, err = daemon(sock, 2.0)          # first run creates PATH.lock, then stops (SIGTERM)
        os.umask(old)
        lock = sock + ".lock"
        if not os.path.exists(lock):
            print("setup: no lock file was created"); return 2
        mode = oct(os.stat(lock).st_mode & 0o777)
        r, w = os.pipe()
        holder = os.fork()
        if holder == 0:
            try:
                os.close(r)
                os.setgroups([]); os.setgid(NOBODY); os.setuid(NOBODY)
                fd = os.open(lock, os.O_RDONLY)
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                os.write(w, b"1")
            except Exception as e:
                os.write(w, b"0" + str(e).encode()[:200])
            time.sleep(20)
            os._exit(0)
        os.close(w)
        msg = os.read(r, 300); os.close(r)
        if not msg.startswith(b"1"):
            print(f"OK: user nobody cannot lock {lock} (mode {mode}): {msg[1:].decode()}"); return 0
        rc, err = daemon(sock, 3.0)
        if rc == 69:
            line = [l for l in err.splitlines() if "critical" in l][:1]
            print(f"BUG: user nobody opened {lock} (mode {mode}) read-only and flock()ed it; the root daemon "
                  f"then refuses to start: exit 69 {line}")
            return 1
        print(f"OK: daemon started anyway ({rc})"); return 0
    finally:
        if holder:
            try: os.kill(holder, signal.SIGKILL)
            except ProcessLookupError: pass
            os.waitpid(holder, 0)
        shutil.rmtree(d, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
