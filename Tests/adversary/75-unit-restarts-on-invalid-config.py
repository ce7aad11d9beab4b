#!/usr/bin/env python3
"""Static check of systemd/strokes.service: an invalid configuration (exit 78) is restarted.

README ("Install as a service"): "an invalid one stops the daemon at start with `file:line: unknown
key 'socket.moed'` (exit 78)"; `strokes daemon --help`: "78 for an invalid configuration". The
gestures unit, for the same exit status: "RestartPreventExitStatus=78 # 78: the configuration is
invalid (the journal says file:line); restarting will not fix it."
strokes.service has Restart=on-failure, RestartSec=1s and no RestartPreventExitStatus=: systemd
restarts the daemon on 78 every second until the start limit (5 in 10 s by default) fails the unit,
repeating the error five times (and the same for exit 69, another daemon on the socket)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

svc = unit('strokes.service')
restart = (svc.get('Restart') or ['no'])[-1]
prevent = ' '.join(svc.get('RestartPreventExitStatus', [])).split()
if restart in ('on-failure', 'always', 'on-abnormal') and '78' not in prevent and restart != 'on-abnormal':
    broken('strokes.service: Restart=%s with RestartPreventExitStatus=%s: exit 78 (invalid configuration, which '
           'README says "stops the daemon at start") is restarted every %s until the start limit; '
           'strokes-gestures.service prevents it ("restarting will not fix it")'
           % (restart, ' '.join(prevent) or '(none)', (svc.get('RestartSec') or ['100ms'])[-1]))
held('exit 78 is not restarted')
