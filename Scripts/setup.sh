#!/usr/bin/env bash
# Installs what strokes needs to build and test on Debian 12: libevdev's headers and pkg-config.
# The Swift 6 toolchain itself is expected on PATH (swift.org toolchain, or /opt/swift).
# Idempotent; runs apt only when something is missing. Needs root (or sudo).
set -euo pipefail

# Installs the Debian packages named that are missing (apt only when something is).
ensure_packages() {
    local missing=() p sudo=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# systemd: systemd-analyze verifies the units; python3: the example client is exercised by a test;
# librsvg2-bin (rsvg-convert) and a font: `strokes render -o picture.png`; strace: an adversary
# script checks the order of the daemon's syscalls (the socket's mode is set before it listens).
ensure_packages libevdev-dev pkg-config systemd python3 librsvg2-bin fonts-dejavu-core strace
if ! command -v swift >/dev/null; then
    [[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null || { echo "setup: no Swift toolchain on PATH (Swift 6.0 or newer is needed)" >&2; exit 1; }
