#!/usr/bin/env python3
"""A stream message whose `seq` is lower than one already delivered (out of order: not the
protocol, docs/protocol.md "Sequence numbers": numbered "in the order the daemon produced them")
is dropped by the python client without a trace: not delivered, no ProtocolError, no Gap. The
client README promises "never one skipped silently" and "anything that is not the protocol ...
raises ProtocolError". Here the dropped message is a stroke's `ended`: the application never
learns the finger lifted (lifecycle incomplete) and is not told anything went wrong.

Fake server: hello, subscribe reply, empty snapshot, then began(seq 2, stroke 1),
began(seq 4, stroke 2), ended(seq 3, stroke 1), ended(seq 5, stroke 2), goodbye. Correct:
the `ended` of stroke 1 is delivered, or the subscription raises ProtocolError / yields a Gap.
Broken: it silently vanishes."""
import sys, os, time, socket, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, Ended, Began, Gap, ProtocolError, StrokesError

base = {"device": 1, "frame": 1, "slot": 0, "trackingId": 5, "time": 100, "x": 1, "y": 2, "nx": 0.1, "ny": 0.2}
msgs = [dict(type="began", seq=2, stroke=1, **base), dict(type="began", seq=4, stroke=2, **dict(base, slot=1)),
        dict(type="ended", seq=3, stroke=1, **base), dict(type="ended", seq=5, stroke=2, **dict(base, slot=1))]
d = scratch_dir('adv109-')
FakeDaemon(d + '/s.sock', fake_stream(msgs, delay=0.2, after=0.3))
got, outcome = [], None
try:
    cl = Client.connect(d + '/s.sock', timeout=10)
    for ev in cl.subscribe(reconnect=False):
        got.append(ev)
        if isinstance(ev, Gap): outcome = 'gap'; break
except ProtocolError as e:
    outcome = 'protocolError: %s' % e
except StrokesError:
    pass  # the goodbye / closed connection without reconnect
ended = [e.stroke for e in got if isinstance(e, Ended)]
if outcome is None and 1 not in ended:
    broken('the out-of-order ended(seq 3, stroke 1) was dropped silently: delivered %s'
           % [(type(e).__name__, getattr(e, 'seq', None), getattr(e, 'stroke', None)) for e in got])
held('delivered or reported: ended %s, %s' % (ended, outcome))
