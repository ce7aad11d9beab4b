"""docs/protocol.md, stroke event keys: "`frame` | integer | all | the device frame (`SYN_REPORT`)
that produced the event, counted from 1 per device."

A touchpad (jump detection on by default, docs/decoder.md "Touch jumps") grouped with a pen
(`strokes replay --group 1,2`, "Touch arbitration"): a touch jumps, so the tracker splits it and
begins a new stroke flagged `jump`; the pen then comes into proximity before the new stroke moves
again, cancelling it (`pen`). The `cancelled` event says `"frame": 0`: the split stroke was made
without its frame (`splitAtJump` leaves `lastFrame` at 0) and the pen cancel reports the stroke's
last frame."""
from common import *

# A clickpad (INPUT_PROP_POINTER + BUTTONPAD, BTN_LEFT, BTN_TOOL_FINGER), 40 units/mm.
TP = crafted_header('Crafted touchpad', {0x00: (0, 4000, 40), 0x01: (0, 4000, 40), 0x2f: (0, 4, 0), 0x35: (0, 4000, 40),
                                         0x36: (0, 4000, 40), 0x39: (0, 65535, 0)},
                    keys=(0x110, 0x145, 0x14a, 0x14d), props=(0, 2), bus=0x11)
PEN = crafted_header('Crafted pen', {0x00: (0, 10000, 100), 0x01: (0, 10000, 100), 0x18: (0, 1023, 0)},
                     keys=(0x140, 0x14a), props=(), bus=0x03)

ev = evemu_event
touch = [ev(100000, 3, 0x2f, 0), ev(100000, 3, 0x39, 5), ev(100000, 3, 0x35, 1000), ev(100000, 3, 0x36, 1000), ev(100000, 1, 0x14a, 1), ev(100000, 0, 0, 0),
         ev(112000, 3, 0x35, 1010), ev(112000, 0, 0, 0),
         ev(124000, 3, 0x35, 3010), ev(124000, 0, 0, 0),           # 50 mm in 12 ms: a jump
         ev(300000, 3, 0x39, -1), ev(300000, 1, 0x14a, 0), ev(300000, 0, 0, 0)]
pen = [ev(130000, 1, 0x140, 1), ev(130000, 3, 0x00, 500), ev(130000, 3, 0x01, 500), ev(130000, 0, 0, 0),
       ev(140000, 1, 0x140, 0), ev(140000, 0, 0, 0)]
tp = crafted_recording('adv33-', TP, touch)
pp = crafted_recording('adv33p-', PEN, pen)
out = replay_output('--group', '1,2', tp, pp)
msgs = [json.loads(l) for l in out.splitlines() if l.strip()]
if not any('jump' in m.get('flags', []) for m in msgs): setup_error('no jump split: %s' % out)
cancels = [m for m in msgs if m.get('type') == 'cancelled' and m.get('reason') == 'pen']
if not cancels: setup_error('the pen cancelled nothing: %s' % out)
bad = [m for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled') and m.get('frame', 0) < 1]
if bad:
    broken('stroke event with "frame": %r (frames count from 1): %s' % (bad[0].get('frame'), json.dumps(bad[0])))
held('every stroke event carries a frame >= 1')
