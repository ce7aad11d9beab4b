"""docs/decoder.md, "Slots and tracking IDs": the first per-slot event applies to the initial
ABS_MT_SLOT; "An out-of-range slot ... is counted and its per-slot events are ignored until the next
valid ABS_MT_SLOT. We do not clamp".

A crafted header whose initial ABS_MT_SLOT (5) is outside the device's slots (2): the events before
the stream's first ABS_MT_SLOT were applied to slot 0, silently. Now they are ignored and counted,
as after an out-of-range ABS_MT_SLOT in the stream. (Sixth round, differential model, finding F5.)"""
from common import *

ev = evemu_event
MT = crafted_header('Crafted touchscreen', {0x00: (0, 799), 0x01: (0, 479), 0x2f: (0, 1), 0x35: (0, 799), 0x36: (0, 479), 0x39: (0, 65535)}, keys=(0x14a,))
# evemu keeps an axis's current value in the header's comments (evemu-record's "Value" line).
MT = MT.replace('# EVEMU 1.3\n', '# EVEMU 1.3\n# Supported events:\n#   Event type 3 (EV_ABS)\n#     Event code 47 (ABS_MT_SLOT)\n#       Value        5\n#       Min          0\n#       Max          1\n', 1)
path = crafted_recording('adv39-', MT, [
    ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 10), ev(10000, 3, 0x36, 20), ev(10000, 0, 0, 0),
    ev(20000, 3, 0x2f, 1), ev(20000, 3, 0x39, 6), ev(20000, 3, 0x35, 1), ev(20000, 3, 0x36, 2), ev(20000, 0, 0, 0)])
describe = subprocess.run([BIN, 'describe', path], capture_output=True, text=True).stdout
if 'initial slot 5' not in describe:
    setup_error('the header does not declare initial slot 5: %s' % describe)
began = [json.loads(l) for l in replay_output(path).splitlines() if '"began"' in l]
if [b['slot'] for b in began] != [1]:
    broken('with an initial ABS_MT_SLOT of 5 on a 2-slot device, the first frame was published in slot %s: %s'
           % (began[0]['slot'] if began else None, began))
summary = replay_output('--summary', path)
if 'slotOutOfRange: 1' not in summary:
    broken('the out-of-range initial slot was not counted: %s' % summary)
held('an initial ABS_MT_SLOT out of range is no slot until the first valid one')
