#!/usr/bin/env bash
# Regenerates Sources/strokes/hot-text.ld, the linker script that places the code the daemon runs
# together at the start of its text (docs/performance.md, "The binary's own pages"; Package.swift
# links release builds with it). Run it when the daemon's code changed much; a stale script only
# costs memory (code it does not list stays where it is, on pages of their own), never correctness.
#
# It builds the installed build (README, "Install as a service": release, --static-swift-stdlib,
# -function-sections) with a link map, runs the
# daemon under valgrind's callgrind (every instruction it executes, by address) through the
# scenarios below, and lists each input section those addresses fall in:
#   1. idle: `daemon --replay 03` played once, then a client: hello, every request, a bad line;
#   2. serving: `daemon --replay 01 --loop --speed 0` with history 10,000 and a subscriber
#      reading the stream, with `stats` requests, for STROKES_ORDER_SECONDS (default 40) seconds.
#
#   Scripts/link-order.sh            needs valgrind (apt-get install valgrind)
#   STROKES_ORDER_SCRATCH=DIR         the build's scratch directory (default .build/link-order)
#   STROKES_ORDER_KEEP=1              keep the map, the callgrind outputs and the logs
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh >/dev/null
command -v valgrind >/dev/null || { echo "link-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
scratch=${STROKES_ORDER_SCRATCH:-.build/link-order}
seconds=${STROKES_ORDER_SECONDS:-40}
work=$(mktemp -d)
[[ -n ${STROKES_ORDER_KEEP:-} ]] && echo "link-order: keeping $work" >&2
daemon=
trap '[[ -n $daemon ]] && kill $daemon 2>/dev/null; [[ -n ${STROKES_ORDER_KEEP:-} ]] || rm -rf "$work"' EXIT

rm -f "$scratch/release/strokes"  # a link, so that the map is of the binary measured
source Scripts/installed-build.sh
swift build -c release --product strokes "${installed_build[@]}" --scratch-path "$scratch" \
    -Xlinker --no-demangle -Xlinker "-Map=$work/strokes.map" 2>&1 |
    grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)|mktemp' >&2 || true
[[ -x $scratch/release/strokes ]] || { echo "link-order: the build failed" >&2; exit 1; }
# Same addresses, no DWARF (valgrind 3.19 cannot read this toolchain's).
objcopy --strip-debug "$scratch/release/strokes" "$work/strokes"

client() {
    python3 - "$work/strokes.sock" "$1" <<'PY'
import json, socket, sys, time
path, mode = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX); s.settimeout(120); s.connect(path); f = s.makefile("rb"); f.readline()
def ask(line):
    s.sendall(line + b"\n")
    while True:
        reply = json.loads(f.readline())
        if reply.get("type") in ("reply", "error"):
            return reply
if mode == "idle":
    for line in [b'{"id":1,"request":"devices"}', b'{"id":2,"request":"live"}', b'{"id":3,"request":"history","limit":5}',
                 b'{"id":4,"request":"stats"}', b'{"id":5,"request":"ping"}', b'{"id":6,"request":"subscribe"}',
                 b'{"id":7,"request":"unsubscribe"}', b'not json', b'{"id":8,"request":"nope"}']:
        ask(line)
else:
    ask(b'{"id":1,"request":"subscribe"}')
    end = time.monotonic() + float(mode)
    next_stats = 0
    while time.monotonic() < end:
        if time.monotonic() > next_stats:
            s.sendall(b'{"id":2,"request":"stats"}\n'); next_stats = time.monotonic() + 2
        f.readline()
PY
}

run() {  # NAME CONFIG CLIENT ARGS...: the daemon under callgrind until the client is done, then SIGTERM
    local name=$1 config=$2 mode=$3
    shift 3
    printf '%s\n' "$config" > "$work/strokes.yaml"
    rm -f "$work/strokes.sock"
    valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no --demangle=no \
        --callgrind-out-file="$work/$name.callgrind" "$work/strokes" daemon --config "$work/strokes.yaml" \
        --socket "$work/strokes.sock" --log-level error "$@" 2> "$work/$name.valgrind" &
    daemon=$!
    for _ in $(seq 600); do [[ -S $work/strokes.sock ]] && break; sleep 0.1; done
    [[ -S $work/strokes.sock ]] || { cat "$work/$name.valgrind" >&2; echo "link-order: $name: no socket" >&2; exit 1; }
    sleep 2
    client "$mode"
    kill -TERM $daemon
    wait $daemon || true
    daemon=
    echo "link-order: $name: $(grep -c '^fn=' "$work/$name.callgrind") functions" >&2
}
fixtures=Tests/ReplayTests/Fixtures
run idle 'history: 256' idle --replay $fixtures/03-atmel-maxtouch-touchscreen-4finger-drag.evemu --no-loop --speed 0
run serving 'history: 10000' "$seconds" --replay $fixtures/01-wacom-dth2242-touchscreen-10finger.evemu --loop --speed 0

python3 Scripts/link-order.py "$work/strokes.map" strokes "$work/idle.callgrind" "$work/serving.callgrind" \
    > Sources/strokes/hot-text.ld
echo "link-order: wrote Sources/strokes/hot-text.ld" >&2
