"""docs/decoder.md, "Frames": every transition a frame contains is published, not only its net
effect; "Contacts already down: adoption": "an axis update in an unknown slot without a tracking ID
adopts the contact".

A contact already down when the stream starts (or after SYN_DROPPED) that moves and lifts in one
frame (`X Y TRACKING_ID -1`; on a single-touch device `ABS_X ABS_Y BTN_TOUCH 0`, as some USB
touchscreens send the coordinates with the release) was dropped silently and counted as a lift
never seen. Now it is adopted and ended in that frame: `began` (adopted) then `ended`, at the
frame's position. (Sixth round, differential model, finding F1.)"""
from common import *

ev = evemu_event
MT = crafted_header('Crafted touchscreen', {0x00: (0, 799), 0x01: (0, 479), 0x2f: (0, 9), 0x35: (0, 799), 0x36: (0, 479), 0x39: (0, 65535)}, keys=(0x14a,))
ST = crafted_header('Crafted single-touch screen', {0x00: (0, 799), 0x01: (0, 479)}, keys=(0x14a,))

def kinds(path):
    return [(m['type'], m.get('x'), m.get('y'), 'adopted' in m.get('flags', []))
            for m in (json.loads(l) for l in replay_output(path).splitlines() if l.strip()) if m['type'] in ('began', 'ended')]

mt = crafted_recording('adv36-', MT, [ev(10000, 3, 0x35, 10), ev(10000, 3, 0x36, 20), ev(10000, 3, 0x39, -1), ev(10000, 0, 0, 0)])
got = kinds(mt)
if got != [('began', 10, 20, True), ('ended', 10, 20, False)]:
    broken('a contact already down that moves and lifts in the first frame: expected an adopted began + ended at (10,20), got %s' % got)
st = crafted_recording('adv36st-', ST, [
    ev(10000, 1, 0x14a, 1), ev(10000, 3, 0x00, 5), ev(10000, 3, 0x01, 5), ev(10000, 0, 0, 0),
    ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),                                                    # SYN_DROPPED
    ev(30000, 3, 0x00, 12), ev(30000, 3, 0x01, 13), ev(30000, 1, 0x14a, 0), ev(30000, 0, 0, 0)])
got = kinds(st)
if got[-2:] != [('began', 12, 13, True), ('ended', 12, 13, False)]:
    broken('single touch: a finger still down after a drop that moves and lifts in one frame vanished: %s' % got)
held('a contact already down that moves and lifts in one frame is adopted and ended in it')
