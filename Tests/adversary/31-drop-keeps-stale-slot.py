"""docs/decoder.md, "Lost events (SYN_DROPPED)": "The decoder discards everything up to and
including the next SYN_REPORT, then cancels every published live stroke ... and marks every slot
unknown, so fingers still down reappear as new `adopted` strokes. A stroke is never left dangling
and never ended by a guess." and "No invented values".

The kernel's evdev, when a client's buffer overflows, keeps only SYN_DROPPED and the newest event
(`__pass_event()`); everything before, an `ABS_MT_SLOT` included, is gone. The kernel sends
`ABS_MT_SLOT` only when the slot changes (`input_handle_abs_event()`), so the frames after a drop
may carry per-slot events for a slot selected in the lost events. Here finger A rests in slot 0;
finger B lands in slot 1 in the events the drop lost; B then moves along x only, with no
`ABS_MT_SLOT` in its frames (it is the kernel's current slot). strokes kept its pre-drop slot (0)
and published B as an adopted stroke *in slot 0*, at B's x and A's y: a point no finger touched.
Now a slot's position is unknown after a drop, and a contact is adopted only once both its
coordinates are reported again (decoder.md, "Lost events"): B, which reports x only, is never
published."""
from common import *

HEADER = crafted_header('Crafted touchscreen', {0x00: (0, 4095), 0x01: (0, 4095), 0x2f: (0, 9), 0x35: (0, 4095), 0x36: (0, 4095), 0x39: (0, 65535)}, keys=(0x14a,), bus=0x0018)

ev = evemu_event
body = [
    # finger A down in slot 0
    ev(10000, 3, 0x2f, 0), ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 100), ev(10000, 3, 0x36, 100), ev(10000, 1, 0x14a, 1), ev(10000, 0, 0, 0),
    # overflow: lost were ABS_MT_SLOT 1, TRACKING_ID 6, POSITION_X 3000; kept the newest event
    ev(20000, 0, 3, 0), ev(20000, 3, 0x36, 3000), ev(20000, 0, 0, 0),
    # B (slot 1, the kernel's current slot) moves along x; A rests
    ev(30000, 3, 0x35, 3010), ev(30000, 0, 0, 0),
    ev(40000, 3, 0x35, 3020), ev(40000, 0, 0, 0),
    ev(50000, 3, 0x39, -1), ev(50000, 0, 0, 0),                                   # B lifts
    ev(60000, 3, 0x2f, 0), ev(60000, 3, 0x39, -1), ev(60000, 1, 0x14a, 0), ev(60000, 0, 0, 0),   # A lifts
]
path = crafted_recording('adv31-', HEADER, body)
out = replay_output(path)
msgs = [json.loads(l) for l in out.splitlines() if l.strip()]
if not any(m.get('type') == 'cancelled' and m.get('reason') == 'eventsDropped' for m in msgs):
    setup_error('the drop cancelled nothing: %s' % out)
after = [m for m in msgs if m.get('type') in ('began', 'moved', 'ended') and m.get('time', 0) > 20000]
mixed = [m for m in after if m.get('slot') == 0 and m.get('x', 0) > 2000 and m.get('y') == 100]
if mixed:
    broken('after SYN_DROPPED, finger B (slot 1, selected in the lost events) is published in slot 0 '
           'at x=%d (B\'s) y=%d (finger A\'s, slot 0): %s' % (mixed[0]['x'], mixed[0]['y'], json.dumps(mixed[0])))
if after:
    broken('after SYN_DROPPED, a contact was published from a position not reported again: %s' % json.dumps(after[0]))
held('after a drop no point joins one finger\'s x to another\'s y')
