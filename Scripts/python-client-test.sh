#!/usr/bin/env bash
# The Python client package (clients/python): installed with pip into a fresh virtual environment,
# then its tests (standard-library unittest) against the daemon binary, $STROKES_BIN or the debug
# build. Needs python3 with venv (Debian: python3-venv, installed here when missing) and PyPI or a
# local wheel cache for pip's build backend (setuptools); the package itself needs nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/setup.sh
python3 -c 'import ensurepip, venv' 2>/dev/null || ensure_packages python3-venv
export STROKES_BIN=${STROKES_BIN:-$PWD/.build/debug/strokes}
[[ -x $STROKES_BIN ]] || swift build --product strokes

venv=$(mktemp -d)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check ./clients/python
# From the tests' directory: the package imported is the installed one, not the source tree.
timeout --kill-after=10 600 "$venv/bin/python" -m unittest discover -s clients/python/tests -t clients/python/tests "$@"
