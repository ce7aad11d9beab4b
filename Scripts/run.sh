#!/usr/bin/env bash
# The README's first command: sets up, builds, and runs the strokes daemon on a Unix socket,
# serving this machine's touch devices when it has any (those `strokes devices` lists), and a
# bundled real recording otherwise (a 10-finger Wacom touchscreen, looped at its recorded pace).
# It says which on stderr. Connect with `.build/release/strokes watch --socket PATH` or
# examples/strokes_client.py.
#
#   Scripts/run.sh                  the daemon (socket: $STROKES_SOCKET, or /run/strokes/strokes.sock
#                                   as root, else $XDG_RUNTIME_DIR/strokes.sock)
#   Scripts/run.sh SUBCOMMAND ...   any strokes subcommand instead, e.g. `replay --summary FILE`
#
# STROKES_BIN=PATH runs that binary instead of building one (tests; an installed strokes).
set -euo pipefail
cd "$(dirname "$0")/.."
strokes=${STROKES_BIN:-}
if [[ -z $strokes ]]; then
    source Scripts/setup.sh
    swift build -c release --product strokes 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' >&2 || true
    strokes=.build/release/strokes
fi
if (($#)); then
    exec "$strokes" "$@"
fi
if [[ -z ${STROKES_SOCKET:-} ]]; then
    if [[ $(id -u) -eq 0 ]]; then STROKES_SOCKET=/run/strokes/strokes.sock; else STROKES_SOCKET=${XDG_RUNTIME_DIR:-/tmp}/strokes.sock; fi
fi
# The daemon's own rule decides what a touch device is; a node this user cannot read is not listed.
touch=$("$strokes" devices --paths 2>/dev/null || true)
if [[ -n $touch ]]; then
    echo "run: serving this machine's touch devices (${touch//$'\n'/ }) on $STROKES_SOCKET (Ctrl-C stops)" >&2
    exec "$strokes" daemon --socket "$STROKES_SOCKET"
fi
recording=Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu
echo "run: no touch devices readable here ('strokes devices' lists none): serving the bundled recording $recording on $STROKES_SOCKET (Ctrl-C stops)" >&2
exec "$strokes" daemon --socket "$STROKES_SOCKET" --replay "$recording" --loop
