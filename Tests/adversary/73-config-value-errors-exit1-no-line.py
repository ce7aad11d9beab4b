#!/usr/bin/env python3
"""Values in the configuration file that the daemon refuses only after parsing: it exits 1 with
"cannot run: ..." instead of 78 with file:line.

README ("Install as a service"): "an invalid one stops the daemon at start with `file:line: unknown
key 'socket.moed'` (exit 78)"; `strokes daemon --help`: "78 for an invalid configuration";
config/strokes.yaml header: "stops the daemon at start with an error naming the file, line and key";
security.md: "a group set explicitly in the configuration must exist, or the daemon does not start".
Observed (each on its own daemon): socket.group naming no group, socket.path "" or longer than
sun_path, http.token naming a missing or empty file: exit 1, no file or line in the message (the
same file with maxLineLength: 1 gets exit 78 and file:line)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

CASES = [
    ('socket:\n  group: no-such-group-x\n', 2, False),
    ('socket:\n  path: ""\n', 2, True),
    ('socket:\n  path: "/tmp/%s.sock"\n' % ('x' * 120), 2, True),
    ('http:\n  listen: 0.0.0.0:47961\n  token: /nonexistent/strokes-token\n', 3, False),
]
bad = []
for cfg, line, no_sock in CASES:
    d = scratch_dir('c94-'); p = d + '/strokes.yaml'; open(p, 'w').write(cfg)
    args = [BIN, 'daemon', '--config', p, '--replay', REC03] + ([] if no_sock else ['--socket', d + '/s.sock'])
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=8, cwd=d)
        rc, err = r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        rc, err = 'running', ''
    named = ('%s:%d' % (p, line)) in err
    if rc != 78 or not named:
        msg = [l for l in err.splitlines() if 'critical' in l or 'strokes:' in l and 'device added' not in l]
        bad.append('%r -> exit %s, %s' % (cfg.strip(), rc, (msg[-1].split('] ')[-1] if msg else err.strip()[-120:])[:140]))
if bad:
    broken('configuration values refused without exit 78 and file:line (README: "an invalid one stops the daemon '
           'at start with file:line ... (exit 78)"; --help: "78 for an invalid configuration"): ' + ' | '.join(bad))
held('every refused configuration value gets exit 78 and file:line')
