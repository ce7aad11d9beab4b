"""docs/decoder.md, "Devices without slots": protocol-A devices "are decoded through their
single-touch emulation" (a decision, not a fault), and "Diagnostics: who is at fault": "**kernel**:
the kernel or the device broke the protocol: ... `SYN_MT_REPORT` in a protocol B stream ... The
daemon logs them as warnings, `kernel bug: ...`".

A well-formed protocol-A touchscreen (ABS_MT_POSITION_X/Y separated by SYN_MT_REPORT, with the
ABS_X/ABS_Y + BTN_TOUCH emulation every in-tree protocol-A driver sends) is not a protocol-B
stream and breaks nothing; yet every SYN_MT_REPORT is counted as `protocolAReports` with origin
kernel, and the daemon serving the recording logs `kernel bug: ... SYN_MT_REPORT (protocol A) on a
device decoded as protocol B or single touch`."""
from common import *

HEADER = crafted_header('Crafted protocol A touchscreen', {0x00: (0, 1023), 0x01: (0, 1023), 0x35: (0, 1023), 0x36: (0, 1023)}, keys=(0x14a,), bus=0x0003, ev_bits=0x0f)

ev = evemu_event
body, t = [], 10000
for i in range(30):
    body += [ev(t, 3, 0x35, 100 + i), ev(t, 3, 0x36, 200), ev(t, 0, 2, 0)]
    if i == 0: body.append(ev(t, 1, 0x14a, 1))
    body += [ev(t, 3, 0x00, 100 + i)] + ([ev(t, 3, 0x01, 200)] if i == 0 else []) + [ev(t, 0, 0, 0)]
    t += 12000
body += [ev(t, 0, 2, 0), ev(t, 1, 0x14a, 0), ev(t, 0, 0, 0)]
path = crafted_recording('adv35-', HEADER, body)
out = replay_output('--summary', path)
if 'strokes: 1' not in out: setup_error('expected one stroke: %s' % out)
dm = Daemon(replay=path, loop=False)
time.sleep(2)
log = dm.stderr()
dm.stop()
blamed = [l for l in log.splitlines() if 'kernel bug' in l and 'SYN_MT_REPORT' in l]
counted = [l for l in out.splitlines() if 'protocolAReports' in l]
if blamed:
    broken('a well-formed protocol-A device is logged as a kernel bug (%d lines; summary: %s): %s'
           % (len(blamed), counted[0] if counted else '-', blamed[0][-160:]))
if counted:
    broken('a well-formed protocol-A device counts its SYN_MT_REPORTs as a device fault: %s' % counted[0])
held('protocol-A framing is not counted as a kernel bug')
