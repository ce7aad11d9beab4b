"""docs/decoder.md, "Palms": "`ABS_MT_TOOL_TYPE = MT_TOOL_PALM` on a live stroke cancels it
(`reason: "palm"`)", and "Frames": the decoder "publishes **every** transition the frame
contained, not only its net effect". A frame that flags a live finger as a palm and lifts it
(`ABS_MT_TOOL_TYPE 2`, `ABS_MT_TRACKING_ID -1`, `SYN_REPORT`) must cancel the stroke (libinput:
PALM_NEW is handled before the lift, `fallback_flush_mt_events()` → TOUCH_CANCEL). strokes
publishes `ended` instead: the palm goes to history as a completed stroke."""
from common import *

HEADER = crafted_header('Crafted palm touchscreen', {0x00: (0, 4095), 0x01: (0, 4095), 0x2f: (0, 9), 0x35: (0, 4095), 0x36: (0, 4095), 0x37: (0, 2), 0x39: (0, 65535)}, keys=(0x14a,), bus=0x0018)

ev = evemu_event
body = [ev(10000, 3, 0x2f, 0), ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 100), ev(10000, 3, 0x36, 100), ev(10000, 1, 0x14a, 1), ev(10000, 0, 0, 0),
        ev(20000, 3, 0x35, 110), ev(20000, 0, 0, 0),
        # the device reclassifies the contact as a palm and releases it, in one frame
        ev(30000, 3, 0x37, 2), ev(30000, 3, 0x39, -1), ev(30000, 1, 0x14a, 0), ev(30000, 0, 0, 0)]
path = crafted_recording('adv30-', HEADER, body)
out = replay_output(path)
msgs = [json.loads(l) for l in out.splitlines() if l.strip()]
ends = [m for m in msgs if m.get('type') in ('ended', 'cancelled') and m.get('stroke') == 1]
if len(ends) != 1: broken('stroke 1 has %d ends: %r' % (len(ends), ends))
e = ends[0]
if e['type'] == 'ended':
    broken('a finger flagged MT_TOOL_PALM in the frame that lifts it is published as "ended" '
           '(toolType %r, a completed stroke) instead of "cancelled" reason "palm": %s' % (e.get('toolType'), json.dumps(e)))
if e.get('reason') != 'palm':
    broken('cancelled with reason %r, not "palm": %s' % (e.get('reason'), json.dumps(e)))
held('palm + lift in one frame cancels the stroke (reason palm)')
