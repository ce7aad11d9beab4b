#!/usr/bin/env python3
"""106: after one read timeout the python `Client(timeout=...)` was dead: its reader was
`socket.makefile()`, which refuses every read after a timeout, so every later `ping()` or
`subscribe()` raised a bare `OSError` ('cannot read from timed out object'), not a StrokesError,
and never reconnected. An idle daemon sends nothing, so a subscriber with any timeout got there
at the first quiet spell.

Here the timeout comes from a request the fake daemon never answers; then `ping()` and a new
`subscribe()` must work, and an idle subscription must stay open (the timeout bounds replies and
the greeting, not a subscription's wait for its next message: clients/python/README.md)."""
import sys, os, time, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, StrokesError, Snapshot
d = scratch_dir('adv112v-')
FakeDaemon(d + '/s.sock', lambda c, send, stop: fake_requests(c, send, stop, lambda r, send: r['request'] == 'stats'))
cl = Client.connect(d + '/s.sock', timeout=1)
try:
    cl.stats(); setup_error('stats answered')
except TimeoutError:
    pass
problems = []
try: cl.ping()
except Exception as e: problems.append('ping() after the timeout raised %r' % e)
it = cl.subscribe(); first = next(it)
if not isinstance(first, Snapshot): problems.append('a new subscribe() yielded %r' % (first,))
out = []
t = threading.Thread(target=lambda: out.append(next(it, 'end')), daemon=True); t.start(); t.join(2.5)
if not t.is_alive(): problems.append('the idle subscription ended after %r' % out)
if problems: broken('; '.join(problems))
held('the client stays usable after a read timeout, and an idle subscription waits')
