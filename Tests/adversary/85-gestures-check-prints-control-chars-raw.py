#!/usr/bin/env python3
"""`strokes gestures --check` prints a rule's name (and a `run` argument's bidi characters) raw: an ESC
sequence or U+202E in gestures.yaml reaches the terminal.

security.md: "Text from outside (... a file name, what a client or a daemon says) is never written
raw to a terminal or a log line: C0 and C1 control characters, DEL and the bidirectional formatting
characters are shown as `\\u{…}` ..., in what `describe`, `replay --summary`, `watch` and `gestures`
print". The client's own log lines do escape the same name (`\\u{1b}[31mX\\u{202e}: cannot run ...`);
`--check` (README: "`strokes gestures --check` # file:line for anything wrong") does not: a shared or
downloaded gestures.yaml can recolour the terminal or show a rule reversed while it is being checked."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

d = scratch_dir('g101-'); gc = d + '/gestures.yaml'
open(gc, 'w').write('rules:\n  - kind: tap\n    name: "\\e[31mRED\\u202e"\n    run: ["true", "x\\u202ey"]\n')
r = subprocess.run([BIN, 'gestures', '--check', '--config', gc], capture_output=True, timeout=10)
out = r.stdout + r.stderr
raw = [n for n, b in (('ESC', b'\x1b'), ('U+202E', '\u202e'.encode())) if b in out]
if raw:
    broken('gestures --check wrote %s raw to the terminal: %r (security.md: control and bidi characters are shown as \\u{...} '
           'in what gestures prints)' % (' and '.join(raw), out[-120:]))
held('--check escapes control and bidi characters: %r' % out[-120:])
