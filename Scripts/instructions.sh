#!/usr/bin/env bash
# Decode + track in instructions per input event, strokes beside c_slot_loop.c, counted by
# valgrind (callgrind): a figure that does not drift with the shared machine's load, as times do
# (docs/performance.md, "Tenth round"). Opt-in, not run by the tests.
#   bash Scripts/instructions.sh [RECORDING ...]
# Each side runs the recording twice (P1 and P2 passes, in one process each); the difference over
# P2 - P1 passes leaves out parsing and start-up. Then strokes' instructions per function, per
# event, from the P2 run. Installs valgrind (apt) when missing and run as root.
set -euo pipefail
cd "$(dirname "$0")/.."
P1=20 P2=60
recordings=("$@")
if [[ ${#recordings[@]} -eq 0 ]]; then
    recordings=(Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu
                Tests/ReplayTests/Fixtures/12-synaptics-ps2-clickpad-1finger-long-45contacts.evemu)
    [[ -r ../shared/recordings/04-3m-microtouch-touchscreen-60slot-long.evemu ]] &&
        recordings+=(../shared/recordings/04-3m-microtouch-touchscreen-60slot-long.evemu)
fi
peer=../shared/peers/c_slot_loop.c
[[ -r $peer ]] || { echo "instructions: $peer not found (the peer runs beside strokes)" >&2; exit 69; }
if ! command -v valgrind >/dev/null; then
    [[ $(id -u) -eq 0 ]] || { echo "instructions: needs valgrind (apt-get install valgrind)" >&2; exit 69; }
    apt-get install -y valgrind >/dev/null
fi
command -v swift >/dev/null || source Scripts/setup.sh >/dev/null

work=$(mktemp -d /tmp/strokes-instructions.XXXXXX)
trap 'rm -rf "$work"' EXIT
swift build -c release --product strokes-bench >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
# valgrind cannot read the Swift debug information; the symbol table is enough.
strip --strip-debug -o "$work/strokes-bench" "$(swift build -c release --show-bin-path)/strokes-bench"
gcc -O2 "$peer" -o "$work/c_slot_loop"

# instructions BINARY-AND-ARGS...: the instructions callgrind counted (the output file is $work/cg).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

for r in "${recordings[@]}"; do
    events=$(grep -c '^E:' "$r")
    s1=$(instructions "$work/strokes-bench" --profile "$r" $P1)
    c1=$(instructions "$work/c_slot_loop" "$r" $P1)
    c2=$(instructions "$work/c_slot_loop" "$r" $P2)
    s2=$(instructions "$work/strokes-bench" --profile "$r" $P2)
    per_event() { echo "scale=1; ($2 - $1) / (($P2 - $P1) * $events)" | bc; }
    s=$(per_event "$s1" "$s2") c=$(per_event "$c1" "$c2")
    echo "$(basename "$r"): $events events"
    echo "  strokes decode + track  $s instructions/event"
    echo "  c_slot_loop.c           $c instructions/event; strokes / C = $(echo "scale=2; $s / $c" | bc)"
    # The P2 run's functions, per event over all its passes (StrokeRecording's, the parse, run once).
    callgrind_annotate "$work/cg" 2>/dev/null | swift demangle --simplified |
        awk -v n=$((P2 * events)) '
            /^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
                count = $1; gsub(",", "", count)
                if (count / n < 2) next
                name = $0; sub(/^[^)]*\) */, "", name); sub(/ \[.*$/, "", name); sub(/^\?\?\?:/, "", name)
                printf "    %6.1f  %s\n", count / n, substr(name, 1, 100)
            }' | head -12
done
