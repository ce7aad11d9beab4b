"""docs/decoder.md, "Palms": a contact whose first frame is already a palm is never published and
stays suppressed until it lifts; "Lost events": after SYN_DROPPED every slot is unknown.

A palm rests in slot 0; events are dropped; the device reports the palm again (the kernel sends a
value only when it changes, so it changed during the lost events and came back); then the contact
turns into a finger. The re-reported palm, equal to the value kept from before the drop, did not
count as news, so the contact was adopted later, as a finger, and published. Now the slot's tool
type is not known after a drop: the palm reported again adopts the contact as a palm, suppressed
until it lifts. (Sixth round, differential model, finding F3.)"""
from common import *

ev = evemu_event
MT = crafted_header('Crafted touchscreen', {0x00: (0, 799), 0x01: (0, 479), 0x2f: (0, 9), 0x35: (0, 799), 0x36: (0, 479), 0x37: (0, 2), 0x39: (0, 65535)}, keys=(0x14a,))
path = crafted_recording('adv38-', MT, [
    ev(10000, 3, 0x37, 2), ev(10000, 0, 0, 0),
    ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),                          # SYN_DROPPED
    ev(30000, 3, 0x37, 2), ev(30000, 0, 0, 0),                       # the palm again
    ev(40000, 3, 0x35, 1), ev(40000, 3, 0x36, 2), ev(40000, 3, 0x37, 0), ev(40000, 0, 0, 0)])
published = [l for l in replay_output(path).splitlines() if '"began"' in l]
if published:
    broken('a palm reported again after a drop was published when it turned into a finger: %s' % published[0])
held('a palm reported again after a drop stays suppressed')
