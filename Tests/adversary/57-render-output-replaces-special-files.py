#!/usr/bin/env python3
"""strokes render -o PATH must write *to* PATH. When PATH is a FIFO, a symlink or a device
node (e.g. -o /dev/stdout, -o /dev/null), the binary instead writes a temp file beside it and
renames it over PATH: the FIFO/symlink/device node is replaced by a regular file, the reader of
the FIFO (or the symlink's target) gets nothing, and the command exits 0.
Exit 0 = correct, 1 = bug present."""
import os, sys, stat, subprocess, tempfile, threading, shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (the binary: argv[1] or .build/debug/strokes)
HERE = os.path.dirname(os.path.abspath(__file__))
REC = os.path.join(FIX, "12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu")

def main():
    d = tempfile.mkdtemp(prefix="strokes-render-special-")
    problems = []
    try:
        # 1. FIFO with a reader
        fifo = os.path.join(d, "out.svg.fifo")
        os.mkfifo(fifo)
        got = {}
        def reader():
            try:
                with open(fifo, "rb") as f:
                    got["data"] = f.read()
            except Exception as e:
                got["err"] = e
        t = threading.Thread(target=reader, daemon=True); t.start()
        r = subprocess.run([BIN, "render", REC, "-o", fifo, "--format", "svg"],
                           capture_output=True, timeout=30)
        t.join(3)
        if t.is_alive():
            # unblock the reader: open the fifo for writing if it still is one
            try:
                if stat.S_ISFIFO(os.lstat(fifo).st_mode):
                    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            # the reader is blocked on the old (renamed-over) fifo inode: nobody will open it
        st = os.lstat(fifo)
        if not stat.S_ISFIFO(st.st_mode):
            problems.append(f"FIFO output path was replaced by a {'regular file' if stat.S_ISREG(st.st_mode) else oct(st.st_mode)} "
                            f"({st.st_size} bytes); render exit {r.returncode}; reader got {len(got.get('data', b''))} bytes")
        elif b"</svg>" not in got.get("data", b""):
            problems.append(f"FIFO reader did not get the SVG (exit {r.returncode})")

        # 2. symlink to a file: output should go to the target (or be refused), not replace the link
        target = os.path.join(d, "real.svg")
        with open(target, "w") as f:
            f.write("old\n")
        link = os.path.join(d, "link.svg")
        os.symlink("real.svg", link)
        r = subprocess.run([BIN, "render", REC, "-o", link], capture_output=True, timeout=30)
        if not os.path.islink(link):
            problems.append(f"symlink output path was replaced by a regular file (exit {r.returncode}); "
                            f"its target still holds {os.path.getsize(target)} bytes")

        # 3. character device node (needs root for mknod): a private /dev/null
        if os.geteuid() == 0:
            node = os.path.join(d, "null")
            os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            r = subprocess.run([BIN, "render", REC, "-o", node], capture_output=True, timeout=30)
            st = os.lstat(node)
            if not stat.S_ISCHR(st.st_mode):
                problems.append(f"character device output path (a copy of /dev/null) was replaced by a "
                                f"regular file of {st.st_size} bytes (exit {r.returncode}); "
                                f"'render -o /dev/null' as root would destroy /dev/null")
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if problems:
        print("BUG: strokes render -o replaces special files:")
        for p in problems:
            print("  -", p)
        return 1
    print("OK: render -o writes through FIFOs, symlinks and device nodes")
    return 0

if __name__ == "__main__":
    sys.exit(main())
