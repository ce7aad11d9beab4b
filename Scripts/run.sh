#!/usr/bin/env bash
# The README's first command: sets up, builds, and runs the strokes daemon serving a bundled real
# recording (a 10-finger Wacom touchscreen, looped at its recorded pace) on a Unix socket.
# Connect with `.build/release/strokes watch --socket PATH` or examples/strokes_client.py.
#
#   Scripts/run.sh                  the daemon (socket: $STROKES_SOCKET, or /run/strokes/strokes.sock
#                                   as root, else $XDG_RUNTIME_DIR/strokes.sock)
#   Scripts/run.sh SUBCOMMAND ...   any strokes subcommand instead, e.g. `replay --summary FILE`
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh
swift build -c release --product strokes 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] (Compiling|Write|Emitting)' >&2 || true
if (($#)); then
    exec .build/release/strokes "$@"
fi
if [[ -z ${STROKES_SOCKET:-} ]]; then
    if [[ $(id -u) -eq 0 ]]; then STROKES_SOCKET=/run/strokes/strokes.sock; else STROKES_SOCKET=${XDG_RUNTIME_DIR:-/tmp}/strokes.sock; fi
fi
echo "run: serving the bundled recording on $STROKES_SOCKET (Ctrl-C stops)" >&2
exec .build/release/strokes daemon --socket "$STROKES_SOCKET" \
    --replay Tests/ReplayTests/Fixtures/01-wacom-dth2242-touchscreen-10finger.evemu --loop
