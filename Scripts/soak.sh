#!/usr/bin/env bash
# Soak test (not in CI): the release daemon serves the 10-finger recording looped at 10x speed
# while churning clients (Scripts/soak-clients.py: connect, subscribe, read some, vanish; some
# never read) come and go. Prints, every 30 s: elapsed time, the daemon's RSS and open
# descriptors, and its stats (clients, slow clients disconnected, bytes queued).
#
#   Scripts/soak.sh MINUTES [WORKERS]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?usage: Scripts/soak.sh MINUTES [WORKERS]}
workers=${2:-24}
[[ -x .build/release/strokes ]] || { source Scripts/setup.sh; swift build -c release --product strokes >&2; }
dir=$(mktemp -d)
sock=$dir/strokes.sock
# Every client here is the same uid: room for all the workers and the stats probe.
printf 'maxClientsPerUid: 128\n' > "$dir/strokes.yaml"
.build/release/strokes daemon --config "$dir/strokes.yaml" --socket "$sock" --log-level error \
    --replay Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu --loop --speed 10 &
daemon=$!
trap 'kill $daemon 2>/dev/null; kill $clients 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do [[ -S $sock ]] && break; sleep 0.1; done
python3 Scripts/soak-clients.py "$sock" $((minutes * 60)) "$workers" &
clients=$!
stats() {
    python3 - "$sock" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.settimeout(5); s.connect(sys.argv[1]); f = s.makefile("rb"); f.readline()
s.sendall(b'{"id":1,"request":"stats"}\n'); d = json.loads(f.readline())["daemon"]
print(f'{d["clients"]:>7} {d["slowClientsDisconnected"]:>9} {d["queuedBytes"]:>11}')
PY
}
printf '%7s %9s %5s %7s %9s %11s\n' minutes rss_mb fds clients slow_disc queued_bytes
start=$(date +%s)
while kill -0 $clients 2>/dev/null; do
    rss=$(awk '/VmRSS/ {printf "%.1f", $2/1024}' /proc/$daemon/status)
    fds=$(ls /proc/$daemon/fd | wc -l)
    printf '%7.1f %9s %5s %s\n' "$(echo "($(date +%s) - $start) / 60" | bc -l)" "$rss" "$fds" "$(stats 2>/dev/null || echo '      ?         ?           ?')"
    sleep 30
done
