#!/usr/bin/env bash
# Fuzzes one target (or all) for SECONDS each with libFuzzer and AddressSanitizer (README, "Fuzzing").
#   bash Scripts/fuzz.sh TARGET SECONDS     TARGET: evemu evtest libinput-record frames request gestures yaml all
# Builds the Fuzz/ package (its library targets are symlinks to Sources/), seeds a corpus from the
# fixtures and the saved regressions, and runs. An input that breaks an oracle or trips a sanitizer
# is written to Tests/FuzzRegressionTests/Regressions/TARGET/, where `swift test` replays it from then on:
# commit it with the fix. Prints one line per target; exits 1 when any target found something.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(evemu evtest libinput-record frames request gestures yaml)
target=${1:?usage: Scripts/fuzz.sh TARGET SECONDS (TARGET: ${targets[*]} all)}
seconds=${2:?usage: Scripts/fuzz.sh TARGET SECONDS}
if [[ $target == all ]]; then selected=("${targets[@]}"); else selected=("$target"); fi
for t in "${selected[@]}"; do
    [[ " ${targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t' (${targets[*]} all)" >&2; exit 64; }
done
command -v swift >/dev/null || source Scripts/setup.sh >/dev/null

# -parse-as-library: libFuzzer supplies main. Release: a debug build runs ~10x fewer inputs.
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
start=$(date +%s)
if ! build_log=$(swift build --package-path Fuzz "${flags[@]}" 2>&1); then
    echo "$build_log" | grep -E "error|warning: .*fuzz" | head -30
    echo "fuzz: build FAILED"
    exit 1
fi
bin=$(swift build --package-path Fuzz "${flags[@]}" --show-bin-path)
echo "fuzz: built in $(( $(date +%s) - start )) s"

seed() {  # seed TARGET DIR: the fixtures that target reads
    local dir=$2
    case $1 in
        evemu) cp Tests/ReplayTests/Fixtures/*.evemu Tests/StrokeRecordingTests/Hostile/*.evemu "$dir" ;;
        evtest) cp Tests/ReplayTests/Fixtures/*.evtest.txt Tests/StrokeRecordingTests/Hostile/*.evtest.txt "$dir" ;;
        libinput-record) cp Tests/ReplayTests/Fixtures/*.yml Tests/StrokeRecordingTests/Hostile/*.yml "$dir" ;;
        yaml) cp Tests/ReplayTests/Fixtures/*.yml Tests/StrokeRecordingTests/Hostile/*.yml config/*.yaml "$dir" ;;
        frames) printf '\x03\x04\x04\x00\x01\x00\x00\x00\x04\x01\x07\x00\x00\x00\x04\x02\x64\x00\x00\x00\x04\x03\x64\x00\x00\x00\x00\x00\x00\x00\x00\x00' > "$dir/touch" ;;
        gestures) printf '\x0a\x00\x32\x32\x00\x02\x50\x90\x05\x06\x00\x00\x10\x00\x20\x20\x05\x03\x90\x80\x05\x06\x00\x00\x05' > "$dir/swipe" ;;
        request) grep -h '^{"' docs/protocol.md | awk '{ f = sprintf("%s/line%d", dir, NR); printf "%s", $0 > f; close(f) }' dir="$dir" ;;
    esac
}

status=0
for t in "${selected[@]}"; do
    corpus=Fuzz/.corpus/$t
    regressions=Tests/FuzzRegressionTests/Regressions/$t
    mkdir -p "$corpus" "$regressions"
    seed "$t" "$corpus"
    log=$(mktemp)
    # Inputs up to 64 KiB: the readers' line and frame limits are reached with less.
    if "$bin/fuzz-$t" "$corpus" "$regressions" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
        -timeout=10 -artifact_prefix="$regressions/" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo '?')
        cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo '?')
        echo "fuzz $t: ${seconds}s, $runs inputs, coverage $cov, nothing found"
    else
        status=1
        artifact=$(grep -oE "Test unit written to [^ ]+" "$log" | tail -1 | sed 's/Test unit written to //')
        echo "fuzz $t: FOUND A CRASH: ${artifact:-see log} (replayed by swift test --filter FuzzRegressionTests)"
        grep -E "Fatal error|ERROR: AddressSanitizer|SUMMARY|==ERROR" "$log" | head -5
    fi
    rm -f "$log"
done
exit $status
