#!/usr/bin/env python3
"""Finding 132: on a single-touch touchpad recording, motion before the first BTN_TOUCH is
adopted as a stroke; if that (hover) motion contains a touch jump, the tracker splits it: the
first part is published as an ordinary `ended` stroke (and kept in `history`), and when the
first BTN_TOUCH turns out to be a press only the second part is `cancelled` (`notTouching`).
So a stroke that never touched is emitted as a completed stroke, by `strokes replay`,
`replay --summary` and `daemon --replay` + `history` alike.

docs/decoder.md, "Devices without slots": "that first BTN_TOUCH settles it: a release ends the
adopted stroke; a press proves the key was up (...), so the adopted stroke is cancelled with
reason notTouching"; docs/protocol.md `notTouching`: "the motion was a tool hovering or a finger
approaching". Expected: no `ended` stroke made of motion that the first press proves was hover.
Exit 1 (BROKEN) while such a stroke ends (replay) or is served in the daemon's history.
Fixed: such motion is not split at a touch jump (docs/decoder.md, "Devices without slots").
"""
import os, sys, time, socket, select, json, struct, signal, threading
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

# A single-touch touchpad (POINTER, BUTTONPAD; BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH), 10 units/mm.
HEADER = crafted_header('ST Pad', {0x00: (0, 1000, 10), 0x01: (0, 1000, 10)}, keys=(272, 325, 330, 333), props=(0, 2), bus=3)
X = lambda v: (3, 0, v); Y = lambda v: (3, 1, v); T = lambda v: (1, 330, v); F = lambda v: (1, 325, v)
# hover: 100 -> 105 -> (50 mm in 10 ms: a jump) 600 -> 605, then the finger presses and lifts
f = crafted_recording('adv132-', HEADER, frame_events([[X(100), Y(100)], [X(105)], [X(600)], [X(605)], [T(1), F(1)], [X(610)], [T(0), F(0)]]))
ev = [json.loads(l) for l in replay_output(f).splitlines() if l.startswith('{')]
press_frame = 5
bad = [e for e in ev if e['type'] == 'ended' and e['frame'] < press_frame]
for e in ev: print('replay:', e['type'], e.get('stroke'), 'frame', e.get('frame'), e.get('flags', ''), e.get('reason', ''))
print('summary:', ' / '.join(l for l in replay_output('--summary', f).splitlines() if l.startswith(('strokes', 'ended', 'cancelled'))))
d = Daemon(replay=f, loop=False, speed=0)
time.sleep(0.8)
h = Client(d.sock).request({'id': 1, 'request': 'history'})
hist_hover = [s for s in h['strokes'] if s['points'][0]['time'] < 50000]
print('daemon history strokes:', [(s['stroke'], s.get('flags'), len(s['points'])) for s in h['strokes']])
if bad or hist_hover:
    broken('hover motion before the first BTN_TOUCH press is published as ended stroke(s) %s (split at a touch jump) instead of being voided with notTouching; daemon history keeps %d such stroke(s)'
           % ([e['stroke'] for e in bad], len(hist_hover)))
held('no stroke made of pre-press hover motion ends or reaches history')
