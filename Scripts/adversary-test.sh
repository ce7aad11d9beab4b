#!/usr/bin/env bash
# The black-box regression scripts (Tests/adversary/README.md) against a strokes binary: each
# exits 0 when the documented promise it attacks holds. Prints one line per failure and a summary.
#
#   Scripts/adversary-test.sh [STROKES_BINARY]     default: the debug build (swift build first)
set -uo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/strokes}
[[ -x $bin ]] || { echo "adversary: no binary at $bin (swift build first)" >&2; exit 2; }
held=0
failed=()
for script in Tests/adversary/[0-9]*.py Tests/adversary/holds-*.py; do
    # Bounded: the longest script waits about a minute on purpose.
    if out=$(timeout --kill-after=10 300 python3 "$script" "$bin" 2>&1); then
        held=$((held + 1))
    else
        failed+=("$(basename "$script"): $(echo "$out" | tail -1)")
    fi
done
for f in "${failed[@]}"; do echo "adversary: FAIL $f"; done
echo "adversary: $held of $((held + ${#failed[@]})) scripts held"
((${#failed[@]} == 0))
