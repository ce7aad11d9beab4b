"""docs/protocol.md, stroke event keys: "`frame` | ... the device frame (`SYN_REPORT`) that produced
the event, counted from 1 per device. Events with the same `device` and `frame` happened at once."

A finger goes down in frame 1 (t = 10 ms); a SYN_DROPPED comes at t = 20 ms. The `cancelled`
(`eventsDropped`) it produces carried `"frame": 1`, the frame of the `began`, with the drop's time:
two events with the same device and frame that did not happen at once. No frame of the device
produced that cancel; the key's description now says so ("except cancellations that no frame of
the device produced ...: those carry the device's last frame number and their own `time`").
Checked: frames group events of one time but for those cancellations, which carry the last frame
number before them."""
from common import *

def header():
    axes = {0x00: (0, 4095), 0x01: (0, 4095), 0x2f: (0, 9), 0x35: (0, 4095), 0x36: (0, 4095), 0x39: (0, 65535)}
    ab = [0] * 8
    for c in axes: ab[c // 8] |= 1 << (c % 8)
    kb = [0] * 96; kb[0x14a // 8] |= 1 << (0x14a % 8)
    lines = ['# EVEMU 1.3', 'N: Crafted touchscreen', 'I: 0018 0000 0000 0000', 'P: 02 00 00 00 00 00 00 00',
             'B: 00 0b 00 00 00 00 00 00 00']
    lines += ['B: 01 ' + ' '.join('%02x' % b for b in kb[i:i + 8]) for i in range(0, 96, 8)]
    lines.append('B: 03 ' + ' '.join('%02x' % b for b in ab))
    lines += ['A: %02x %d %d 0 0 0' % (c, mn, mx) for c, (mn, mx) in sorted(axes.items())]
    return '\n'.join(lines) + '\n'

def ev(t, ty, code, val): return 'E: 0.%06d %04x %04x %d' % (t, ty, code, val)
body = [ev(10000, 3, 0x2f, 0), ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 100), ev(10000, 3, 0x36, 100), ev(10000, 1, 0x14a, 1), ev(10000, 0, 0, 0),
        ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),
        ev(30000, 3, 0x35, 120), ev(30000, 0, 0, 0),
        ev(40000, 3, 0x39, -1), ev(40000, 1, 0x14a, 0), ev(40000, 0, 0, 0)]
d = scratch_dir('adv34-')
path = os.path.join(d, 'drop.evemu')
open(path, 'w').write(header() + '\n'.join(body) + '\n')
try:
    r = subprocess.run([BIN, 'replay', path], capture_output=True, text=True, timeout=50)
except subprocess.TimeoutExpired:
    broken('replay did not finish within 50 s')
if r.returncode != 0: setup_error('replay exit %d: %s' % (r.returncode, r.stderr[-500:]))
msgs = [json.loads(l) for l in r.stdout.splitlines() if l.strip() and json.loads(l).get('type') != 'replayEnded']
UNFRAMED = {'eventsDropped', 'deviceRemoved', 'shutdown', 'pen', 'replayRestarted'}
times = {}
last = {}
for m in msgs:
    k = (m['device'], m['frame'])
    if m['type'] == 'cancelled' and m.get('reason') in UNFRAMED:
        if m['frame'] != last.get(m['device']):
            broken('a %s cancel carries frame %d, not the device\'s last frame %s' % (m['reason'], m['frame'], last.get(m['device'])))
        continue
    last[m['device']] = m['frame']
    times.setdefault(k, set()).add(m['time'])
if not any(m['type'] == 'cancelled' for m in msgs): setup_error('the drop cancelled nothing: %s' % msgs)
clash = {k: sorted(v) for k, v in times.items() if len(v) > 1}
if clash:
    k, v = next(iter(clash.items()))
    evs = [('%s@%d' % (m['type'], m['time'])) for m in msgs if (m['device'], m['frame']) == k]
    broken('device %d frame %d holds events at different times %s: %s' % (k[0], k[1], v, ', '.join(evs)))
held('events with the same device and frame share one time; a drop\'s cancel carries the last frame')
