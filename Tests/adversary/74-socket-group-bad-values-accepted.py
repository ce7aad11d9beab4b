#!/usr/bin/env python3
"""socket.group values that name no group are accepted silently when they are empty or numeric.

config/strokes.yaml (socket.group): "Where the default group does not exist or cannot be set, the
daemon keeps its own group and warns; a group set here must work"; security.md: "a group set
explicitly in the configuration must exist, or the daemon does not start" (and `group: no-such-name`
is indeed refused).
Observed: `group: ""` and `group: 4294967295` ((gid_t)-1, "no change" to chown) start the daemon with
the socket left in the daemon's own group and no warning; `group: 99999` (no such group) gives the
socket gid 99999."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
import grp

bad = []
for g in ('""', '4294967295', '99999'):
    d = Daemon(config='socket:\n  group: %s\n' % g, replay=REC03, wait=False)
    c = d.accepting(10)
    if c is None:
        continue                      # refused: as documented
    c.close()
    gid = os.stat(d.sock).st_gid
    try: name = grp.getgrgid(gid).gr_name
    except KeyError: name = None
    warned = 'warning' in d.stderr() and 'group' in d.stderr()
    bad.append('group %s: daemon serves, socket gid %d (%s), warning logged: %s' % (g, gid, name or 'no such group', warned))
    d.stop()
if bad:
    broken('socket.group naming no group accepted: ' + '; '.join(bad) +
           ' (config/strokes.yaml: "a group set here must work"; security.md: "a group set explicitly ... must exist, or the daemon does not start")')
held('every socket.group naming no group is refused')
