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

HEADER = crafted_header('Crafted touchscreen', {0x00: (0, 4095), 0x01: (0, 4095), 0x2f: (0, 9), 0x35: (0, 4095), 0x36: (0, 4095), 0x39: (0, 65535)}, keys=(0x14a,), bus=0x0018)

ev = evemu_event
body = [ev(10000, 3, 0x2f, 0), ev(10000, 3, 0x39, 5), ev(10000, 3, 0x35, 100), ev(10000, 3, 0x36, 100), ev(10000, 1, 0x14a, 1), ev(10000, 0, 0, 0),
        ev(20000, 0, 3, 0), ev(20000, 0, 0, 0),
        ev(30000, 3, 0x35, 120), ev(30000, 0, 0, 0),
        ev(40000, 3, 0x39, -1), ev(40000, 1, 0x14a, 0), ev(40000, 0, 0, 0)]
path = crafted_recording('adv34-', HEADER, body)
out = replay_output(path)
msgs = [json.loads(l) for l in out.splitlines() if l.strip() and json.loads(l).get('type') != 'replayEnded']
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
