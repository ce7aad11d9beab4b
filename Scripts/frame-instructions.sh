#!/usr/bin/env bash
# The daemon's user-space instructions per frame, counted by valgrind (callgrind): `strokes daemon
# --replay` of a recording with one subscriber reading the whole stream, paced slowly enough that
# every frame is its own wake-up, as at the recorded pace on a live device (docs/performance.md,
# "Twelfth round"). A figure that does not drift with the machine's load, as CPU times do; the
# kernel's side (wake-ups, system calls) is not in it. Opt-in, not run by the tests.
#   bash Scripts/frame-instructions.sh [RECORDING] [SECONDS]
# Counts from the 20th frame on (start-up and the subscription left out) for SECONDS (default 60)
# at --speed 0.1 (STROKES_SPEED), then prints instructions per frame, in total and per function
# (self cost; STROKES_TOP lines). The frames are the stream's frame numbers: one frame either way
# at each end of the window (about 1 % at the defaults). Installs valgrind
# (apt) when missing and run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu}
seconds=${2:-60}
speed=${STROKES_SPEED:-0.1}
if ! command -v valgrind >/dev/null; then
    [[ $(id -u) -eq 0 ]] || { echo "frame-instructions: needs valgrind (apt-get install valgrind)" >&2; exit 69; }
    apt-get install -y valgrind >/dev/null
fi
command -v swift >/dev/null || source Scripts/setup.sh >/dev/null

work=$(mktemp -d /tmp/strokes-frame-instructions.XXXXXX)
daemon_pid=
cleanup() {
    [[ -n $daemon_pid ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
    [[ -n ${STROKES_KEEP:-} ]] && echo "frame-instructions: keeping $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
# The installed build (README, "Install as a service"), in kernel-test.sh's scratch directory;
# STROKES_BIN: that binary instead. (valgrind 3.19 also stops at the first thread a dynamically
# linked build starts.)
if [[ -z ${STROKES_BIN:-} ]]; then
    source Scripts/installed-build.sh
    scratch=.build/static
    swift build -c release --product strokes "${installed_build[@]}" --scratch-path "$scratch" >"$work/build.log" 2>&1 ||
        { tail -30 "$work/build.log"; exit 1; }
    STROKES_BIN=$scratch/release/strokes
fi
# valgrind cannot read the Swift debug information; the symbol table is enough.
objcopy --strip-debug "$STROKES_BIN" "$work/strokes"

socket=$work/strokes.sock
valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$work/strokes" daemon --socket "$socket" \
    --replay "$recording" --speed "$speed" --no-loop --log-level error >"$work/daemon.log" 2>&1 &
daemon_pid=$!

python3 - "$socket" "$daemon_pid" "$seconds" "$work/cg" <<'EOF'
# One subscriber reading the stream; the window is measured by the stream's own frame numbers, so
# no request is answered inside it.
import json, socket, subprocess, sys, threading, time
path, pid, seconds, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
deadline = time.time() + 120
while True:
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        if time.time() > deadline: sys.exit("frame-instructions: the daemon never listened")
        time.sleep(0.2)
last_frame = 0
def read():
    global last_frame
    buf = b""
    while True:
        data = s.recv(65536)
        if not data: return
        buf += data
        *lines, buf = buf.split(b"\n")
        for line in lines:
            frame = json.loads(line).get("frame")
            if isinstance(frame, int): last_frame = frame
threading.Thread(target=read, daemon=True).start()
s.sendall(b'{"id":1,"request":"subscribe"}\n')
while last_frame < 20:
    if time.time() > deadline: sys.exit("frame-instructions: no frames streamed")
    time.sleep(0.2)
subprocess.run(["callgrind_control", "-z", pid], check=True, capture_output=True)
f0 = last_frame
time.sleep(seconds)
subprocess.run(["callgrind_control", "-d", pid], check=True, capture_output=True)
open(out + ".frames", "w").write(str(last_frame - f0))
EOF

frames=$(cat "$work/cg.frames")
dump=$(ls "$work"/cg.* | grep -v frames | sort | tail -1)
total=$(callgrind_annotate "$dump" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
echo "$(basename "$recording") at --speed $speed, one subscriber: $frames frames counted"
echo "  daemon: $(echo "scale=0; $total / $frames" | bc) instructions per frame (all threads, user space)"
callgrind_annotate --threshold=100 "$dump" 2>/dev/null | swift demangle --simplified |
    awk -v n="$frames" -v total="$total" '
        /^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
            count = $1; gsub(",", "", count); count += 0
            # Self cost; the thread start-up frames still on the stack carry all of it.
            if (count / n < 300 || count > 0.9 * total) next
            name = $0; sub(/^[^)]*\) */, "", name); sub(/ \[.*$/, "", name); sub(/^\?\?\?:/, "", name)
            printf "    %7.0f  %s\n", count / n, substr(name, 1, 110)
        }' | head -${STROKES_TOP:-30}
