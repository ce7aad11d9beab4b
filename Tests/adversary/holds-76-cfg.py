#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (config/strokes.yaml header, README "Install as a service"): an unknown key, a value of the wrong
# type or invalid YAML stops the daemon at start with `file:line: ...` and exit 78 (no crash).
cases = {
 'unknown_key': ('socket:\n  moed: "0660"\n', 2), 'unknown_top': ('bogus: 1\n', 1), 'wrong_type_int': ('maxClients: abc\n', 1),
 'wrong_type_map': ('queue: 5\n', 1), 'neg': ('history: -1\n', 1), 'huge_int': ('maxClients: 99999999999999999999999\n', 1),
 'tab': ('queue:\n\tmergeAfter: 5\n', 2), 'anchor': ('a: &x 1\nhistory: *x\n', 1), 'dup': ('history: 5\nhistory: 6\n', 2),
 'block': ('socket:\n  mode: |\n    0660\n', 2), 'unterminated': ('socket:\n  mode: "0660\n', 3), 'deep_flow': ('calibration: ' + '[' * 50000 + '\n', 1),
 'deep_block': (''.join('  ' * i + 'k%d:\n' % i for i in range(300)), 201), 'nul': ('history: 5\x00\n', 1), 'mode_bad': ('socket:\n  mode: "abc"\n', 2),
 'merge_gt_disc': ('queue:\n  mergeAfter: 100\n  disconnectAfter: 10\n', 2), 'speed_nan': ('devices:\n  speed: .nan\n', 2), 'multi_doc': ('history: 5\n---\nhistory: 6\n', 2),
 'list_top': ('- 1\n', 1), 'http_public': ('http:\n  listen: 0.0.0.0:17999\n', 2),
}
bad = []
for name, (txt, line) in cases.items():
    dd = tempfile.mkdtemp(prefix='advc-', dir='/tmp'); cfg = os.path.join(dd, 'cfg.yaml'); open(cfg, 'w').write(txt)
    p = subprocess.run([BIN, 'daemon', '--socket', dd + '/s.sock', '--config', cfg, '--replay', REC03], capture_output=True, timeout=20)
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode != 78 or ('%s:%d:' % (cfg, line)) not in err: bad.append('%s: exit %s, %r' % (name, p.returncode, err.strip()[-150:]))
if bad: broken('; '.join(bad[:5]))
held('%d malformed configurations refused with file:line and exit 78' % len(cases))
