"""docs/decoder.md, "No invented values": a contact is published once its position is known; "the
frame that completes the position publishes its `began` with that first real position".

A contact whose second coordinate came in the frame that lifts it (frame 1: `TRACKING_ID 5, X`;
frame 2: `Y, TRACKING_ID -1`), or replaces it with a new tracking ID, was never published and was
counted as `unpositionedContacts`, a kernel fault, though its position had been reported. Now that
frame publishes it, `began` then `ended`. (Sixth round, differential model, finding F2.)"""
from common import *

ev = evemu_event
MT = crafted_header('Crafted touchscreen', {0x00: (0, 799), 0x01: (0, 479), 0x2f: (0, 9), 0x35: (0, 799), 0x36: (0, 479), 0x39: (0, 65535)}, keys=(0x14a,))
path = crafted_recording('adv37-', MT, [
    ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 10), ev(10000, 0, 0, 0),
    ev(20000, 3, 0x36, 20), ev(20000, 3, 0x39, -1), ev(20000, 0, 0, 0)])
msgs = [json.loads(l) for l in replay_output(path).splitlines() if l.strip()]
got = [(m['type'], m.get('trackingId'), m.get('x'), m.get('y'), m.get('frame')) for m in msgs if m['type'] in ('began', 'ended')]
if got != [('began', 5, 10, 20, 2), ('ended', 5, 10, 20, 2)]:
    summary = replay_output('--summary', path)
    broken('a contact positioned in the frame that lifts it: expected began + ended at (10,20) in frame 2, got %s (%s)'
           % (got, ' / '.join(l.strip() for l in summary.splitlines() if 'unpositioned' in l)))
held('a contact positioned in the frame that lifts it is published there')
