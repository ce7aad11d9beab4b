#!/usr/bin/env bash
# Sets up, builds, and runs strokes on a bundled real recording (a 10-finger Wacom touchscreen),
# printing its strokes as JSON lines: the README's first command. Extra arguments go to
# `strokes replay` (e.g. --summary, --realtime, another recording).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh
swift build -c release --product strokes 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' >&2 || true
args=("$@")
if ((${#args[@]} == 0)) || [[ ${args[-1]} == -* ]]; then
    args+=("Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu")
fi
exec .build/release/strokes replay "${args[@]}"
