#!/usr/bin/env bash
# The live page in a real browser (Scripts/browser-test.py): installs Debian's chromium and
# python3-websocket when missing (about 360 MB installed), then drives headless chromium through its
# DevTools protocol against the daemon binary, $STROKES_BIN or the debug build.
#   Scripts/browser-test.sh                 # the checks
#   Scripts/browser-test.sh screenshot      # regenerate docs/browser-page.png
# Exits 0 with "browser: skipped" when chromium cannot be installed (no apt, no network).
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh

if ! command -v chromium >/dev/null || ! /usr/bin/python3 -c 'import websocket' 2>/dev/null; then
    if ! ensure_packages chromium python3-websocket 2>&1; then
        echo "browser: skipped (chromium and python3-websocket could not be installed with apt)"
        exit 0
    fi
fi
export STROKES_BIN=${STROKES_BIN:-$PWD/.build/debug/strokes}
[[ -x $STROKES_BIN ]] || swift build --product strokes

if [[ ${1:-} == screenshot ]]; then
    exec timeout --kill-after=10 300 /usr/bin/python3 Scripts/browser-test.py screenshot docs/browser-page.png
fi
# Debian's python3-websocket is for Debian's python3: /usr/bin/python3, whatever else is on PATH.
exec timeout --kill-after=10 300 /usr/bin/python3 Scripts/browser-test.py test
