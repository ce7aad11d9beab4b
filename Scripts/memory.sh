#!/usr/bin/env bash
# The daemon's memory (issue 14's floor: RSS ≤ 12 MB idle with a device open, ≤ 20 MB with 10,000
# completed strokes in history), measured on the release binary, and what each mapped library
# costs (docs/performance.md, "Memory"). Two runs:
#
#   idle     `daemon --replay SMALL` (recording 03, 4 fingers, played once): RSS once it has
#            played, the device still served, nothing touching
#   history  `daemon --replay 01 --loop --speed 0` with `history: 10000`: RSS once `stats`
#            counts 10,000 completed strokes (and the replay keeps going)
#   flood    (`Scripts/memory.sh flood`, not run by default) `daemon --replay 01 --loop --speed 0`
#            with the default queue limits and 500 subscribers that never read: VmRSS and VmHWM
#            after 8 s of it, then 3 s and 6 s after they all closed (queue memory given back:
#            docs/performance.md, "Seventh round: memory under a flood")
#
# For each: VmRSS and VmHWM (/proc/PID/status), then RSS per mapped file (libraries and the
# binary) and anonymous memory, from /proc/PID/smaps, largest first.
#
#   Scripts/memory.sh [flood]    STROKES_BIN=PATH measures that binary instead of building one
set -euo pipefail
cd "$(dirname "$0")/.."
strokes=${STROKES_BIN:-}
if [[ -z $strokes ]]; then
    source Scripts/setup.sh >/dev/null
    swift build -c release --product strokes 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' >&2 || true
    strokes=.build/release/strokes
fi
small=Tests/ReplayTests/Fixtures/03-atmel-maxtouch-touchscreen-4finger-drag.evemu
long=Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu
dir=$(mktemp -d)
daemon=
trap '[[ -n $daemon ]] && kill $daemon 2>/dev/null; rm -rf "$dir"' EXIT

# `stats`' daemon.completedStrokes (the history's size).
completed() {
    python3 - "$1" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1]); f = s.makefile("rb"); f.readline()
s.sendall(b'{"id":1,"request":"stats"}\n'); print(json.loads(f.readline())["daemon"]["completedStrokes"])
PY
}

# VmRSS and VmHWM, then per mapping (file name, or [anon]/[heap]/[stack]), largest first: RSS
# and the part of it that is private (dirty or copied: not shared with other processes).
report() {
    local pid=$1 what=$2
    echo "== $what"
    grep -E '^(VmRSS|VmHWM)' "/proc/$pid/status"
    echo "     RSS   private  mapping"
    awk '
        /^[0-9a-f]+-[0-9a-f]+ / { name = (NF >= 6) ? $6 : "[anon]"; sub(".*/", "", name); next }
        /^Rss:/ { rss[name] += $2 }
        /^Private_(Clean|Dirty):/ { own[name] += $2 }
        END { for (n in rss) if (rss[n] > 0) printf "%8d %8d kB  %s\n", rss[n], own[n], n }
    ' "/proc/$pid/smaps" | sort -rn
}

start() {
    local sock=$dir/strokes.sock
    rm -f "$sock"
    "$strokes" daemon --config "$dir/strokes.yaml" --socket "$sock" --log-level error "$@" &
    daemon=$!
    for _ in $(seq 100); do [[ -S $sock ]] && return; sleep 0.1; done
    echo "memory: the daemon did not start" >&2
    exit 1
}

stop() {
    kill "$daemon"
    wait "$daemon" 2>/dev/null || true
    daemon=
}

printf 'history: 256\n' > "$dir/strokes.yaml"
start --replay "$small" --no-loop --speed 0
sleep 2
report "$daemon" "idle: daemon --replay $(basename "$small") (played once, device served)"
stop

printf 'history: 10000\n' > "$dir/strokes.yaml"
start --replay "$long" --loop --speed 0
for _ in $(seq 600); do
    (($(completed "$dir/strokes.sock") >= 10000)) && break
    sleep 0.5
done
echo
report "$daemon" "history: daemon --replay $(basename "$long") --loop --speed 0, history 10000, $(completed "$dir/strokes.sock") completed strokes"
stop

[[ ${1:-} == flood ]] || exit 0
printf 'maxClients: 1000\nmaxClientsPerUid: 1000\n' > "$dir/strokes.yaml"
start --replay "$long" --loop --speed 0
echo
echo "== flood: daemon --replay $(basename "$long") --loop --speed 0, 500 subscribers that never read"
python3 - "$dir/strokes.sock" "$daemon" <<'PY'
import json, socket, sys, time
path, pid = sys.argv[1], sys.argv[2]

def status(what):
    fields = {l.split(':')[0]: l.split()[1] for l in open(f"/proc/{pid}/status") if l.startswith(("VmRSS", "VmHWM"))}
    s = socket.socket(socket.AF_UNIX); s.settimeout(60); s.connect(path); f = s.makefile("rb"); f.readline()
    s.sendall(b'{"id":1,"request":"stats"}\n'); d = json.loads(f.readline())["daemon"]; s.close()
    print(f"{what:24} VmRSS {fields['VmRSS']:>7} kB  VmHWM {fields['VmHWM']:>7} kB  clients {d['clients']:4}  "
          f"queuedBytes {d['queuedBytes']:>9}  slowClientsDisconnected {d['slowClientsDisconnected']}")

status("before")
clients = []
for _ in range(500):
    c = socket.socket(socket.AF_UNIX); c.connect(path); c.sendall(b'{"id":1,"request":"subscribe"}\n'); clients.append(c)
time.sleep(8)
status("after 8 s of the flood")
for c in clients: c.close()
time.sleep(3)
status("3 s after they closed")
time.sleep(3)
status("6 s after they closed")
PY
stop
