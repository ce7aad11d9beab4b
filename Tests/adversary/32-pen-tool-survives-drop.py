"""docs/decoder.md, "Pens", "Unknown tool": "After `SYN_DROPPED` a live pen stroke is `cancelled`
(`eventsDropped`), the tool leaves proximity, and the tool is unknown again until its next
`BTN_TOOL_*` (the bits are sent only on change)."

A pen comes into proximity touching (BTN_TOOL_PEN 1, BTN_TOUCH 1, pressure) in a frame without
ABS_X/ABS_Y (the kernel sends an axis only when it changes, beyond its fuzz), so it is not
published yet. Then SYN_DROPPED: whatever the tool did meanwhile is lost. After the drop only
positions arrive, no BTN_TOOL_* bit. strokes still uses the tool bits and BTN_TOUCH from before the
drop (`cancelTool` resets the pen only when it had been published) and publishes a proximityIn
and a `began` (not even flagged `adopted`) for a tool whose state the drop made unknown."""
from common import *

HEADER = crafted_header('Crafted Pen', {0x00: (0, 10000, 100), 0x01: (0, 10000, 100), 0x18: (0, 1023, 0), 0x19: (0, 63, 0)}, keys=(0x140, 0x141, 0x14a, 0x14b), bus=0x0003)

ev = evemu_event
body = [
    ev(10000, 1, 0x140, 1), ev(10000, 1, 0x14a, 1), ev(10000, 3, 0x18, 500), ev(10000, 0, 0, 0),
    ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),                       # SYN_DROPPED ... SYN_REPORT
    ev(30000, 3, 0x00, 1000), ev(30000, 3, 0x01, 1000), ev(30000, 0, 0, 0),
    ev(40000, 3, 0x00, 1100), ev(40000, 0, 0, 0),
]
path = crafted_recording('adv32-', HEADER, body)
out = replay_output('--hover', path)
msgs = [json.loads(l) for l in out.splitlines() if l.strip()]
published = [m for m in msgs if m.get('type') in ('began', 'moved', 'hover')]
if published:
    broken('after SYN_DROPPED, with no BTN_TOOL_* since, the pen is published from its pre-drop tool bits: %s'
           % '; '.join('%s%s at t=%d' % (m['type'], '/' + m['phase'] if 'phase' in m else '', m['time']) for m in published))
held('nothing published for the pen until its next BTN_TOOL_* after the drop')
