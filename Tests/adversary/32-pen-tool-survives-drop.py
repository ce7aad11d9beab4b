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

def header():
    axes = {0x00: (0, 10000, 100), 0x01: (0, 10000, 100), 0x18: (0, 1023, 0), 0x19: (0, 63, 0)}
    ab = [0] * 8
    for c in axes: ab[c // 8] |= 1 << (c % 8)
    kb = [0] * 96
    for k in (0x140, 0x141, 0x14a, 0x14b): kb[k // 8] |= 1 << (k % 8)
    lines = ['# EVEMU 1.3', 'N: Crafted Pen', 'I: 0003 056a 0000 0000', 'P: 02 00 00 00 00 00 00 00',
             'B: 00 0b 00 00 00 00 00 00 00']
    lines += ['B: 01 ' + ' '.join('%02x' % b for b in kb[i:i + 8]) for i in range(0, 96, 8)]
    lines.append('B: 03 ' + ' '.join('%02x' % b for b in ab))
    lines += ['A: %02x %d %d 0 0 %d' % (c, mn, mx, res) for c, (mn, mx, res) in sorted(axes.items())]
    return '\n'.join(lines) + '\n'

def ev(t, ty, code, val): return 'E: 0.%06d %04x %04x %d' % (t, ty, code, val)
body = [
    ev(10000, 1, 0x140, 1), ev(10000, 1, 0x14a, 1), ev(10000, 3, 0x18, 500), ev(10000, 0, 0, 0),
    ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),                       # SYN_DROPPED ... SYN_REPORT
    ev(30000, 3, 0x00, 1000), ev(30000, 3, 0x01, 1000), ev(30000, 0, 0, 0),
    ev(40000, 3, 0x00, 1100), ev(40000, 0, 0, 0),
]
d = scratch_dir('adv32-')
path = os.path.join(d, 'pen-drop.evemu')
open(path, 'w').write(header() + '\n'.join(body) + '\n')
try:
    r = subprocess.run([BIN, 'replay', '--hover', path], capture_output=True, text=True, timeout=50)
except subprocess.TimeoutExpired:
    broken('replay did not finish within 50 s')
if r.returncode != 0: setup_error('replay exit %d: %s' % (r.returncode, r.stderr[-500:]))
msgs = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
published = [m for m in msgs if m.get('type') in ('began', 'moved', 'hover')]
if published:
    broken('after SYN_DROPPED, with no BTN_TOOL_* since, the pen is published from its pre-drop tool bits: %s'
           % '; '.join('%s%s at t=%d' % (m['type'], '/' + m['phase'] if 'phase' in m else '', m['time']) for m in published))
held('nothing published for the pen until its next BTN_TOOL_* after the drop')
