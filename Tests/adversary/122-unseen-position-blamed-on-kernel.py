"""docs/decoder.md, "No invented values" and "Diagnostics: who is at fault": a contact that ends
before its position was seen is never published; the kernel sends an axis only when it changes
(per slot, input_handle_abs_event()), so a new contact that lands where its slot's last contact
was sends no position at all, and a recording that starts after that position was reported
never sees it. That is nobody's fault.

Found by a black-box round on real recordings: an evtest capture of the Raspberry Pi 7" DSI
panel (ft5x06, raspberrypi/linux issue #4749, licence not stated: reproduced here in shape) starts
mid-stream, and its contacts send ABS_MT_TRACKING_ID and BTN_TOUCH but no position. strokes
counted them as `unpositionedContacts`, a kernel fault, and the daemon logged `kernel bug: ... a
contact ended without ever reporting its position` for a correct device. Now they are counted as
`unseenContactsEnded` and logged as a notice."""
from common import *

HEADER = crafted_header('generic ft5x06 (00)', {0x2f: (0, 9), 0x35: (0, 799), 0x36: (0, 479), 0x39: (0, 65535)})
ev = evemu_event
body, t = [], 10000
for tid in (24902, 24903, 24904):
    body += [ev(t, 3, 0x2f, 0), ev(t, 3, 0x39, tid), ev(t, 1, 0x14a, 1), ev(t, 0, 0, 0)]
    t += 20000
    body += [ev(t, 3, 0x39, -1), ev(t, 1, 0x14a, 0), ev(t, 0, 0, 0)]
    t += 200000
path = crafted_recording('adv122-', HEADER, body)
out = replay_output('--summary', path)
if 'strokes: 0' not in out: setup_error('expected no stroke (no position was ever seen): %s' % out)
dm = Daemon(replay=path, loop=False)
time.sleep(2)
log = dm.stderr()
dm.stop()
blamed = [l for l in log.splitlines() if 'kernel bug' in l]
if 'unpositionedContacts' in out:
    broken('contacts whose position was reported before the recording began are counted as a device fault: %s'
           % [l for l in out.splitlines() if 'unpositioned' in l][0].strip())
if blamed:
    broken('the daemon blames the kernel for them: %s' % blamed[0][-200:])
if 'unseenContactsEnded: 3' not in out:
    broken('expected the three contacts counted as unseenContactsEnded: %s' % out)
held('contacts without a seen position are nobody\'s fault: %s' % [l for l in out.splitlines() if 'unseen' in l][0].strip())
