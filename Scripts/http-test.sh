#!/usr/bin/env bash
# The daemon's HTTP side from standard-library Python (Tests/http/test_http.py): JSON endpoints
# and Server-Sent Events through http.client, WebSocket through a minimal client over a socket,
# against the daemon binary ($STROKES_BIN, else the debug build). Needs python3 only.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh
export STROKES_BIN=${STROKES_BIN:-$PWD/.build/debug/strokes}
[[ -x $STROKES_BIN ]] || swift build --product strokes
timeout --kill-after=10 300 python3 -m unittest discover -s Tests/http -t Tests/http "$@"
