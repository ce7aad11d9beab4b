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

def header():
    axes = {0x00: (0, 1023), 0x01: (0, 1023), 0x35: (0, 1023), 0x36: (0, 1023)}
    ab = [0] * 8
    for c in axes: ab[c // 8] |= 1 << (c % 8)
    kb = [0] * 96; kb[0x14a // 8] |= 1 << (0x14a % 8)
    lines = ['# EVEMU 1.3', 'N: Crafted protocol A touchscreen', 'I: 0003 0000 0000 0000', 'P: 02 00 00 00 00 00 00 00',
             'B: 00 0f 00 00 00 00 00 00 00']
    lines += ['B: 01 ' + ' '.join('%02x' % b for b in kb[i:i + 8]) for i in range(0, 96, 8)]
    lines.append('B: 03 ' + ' '.join('%02x' % b for b in ab))
    lines += ['A: %02x %d %d 0 0 0' % (c, mn, mx) for c, (mn, mx) in sorted(axes.items())]
    return '\n'.join(lines) + '\n'

def ev(t, ty, code, val): return 'E: %d.%06d %04x %04x %d' % (t // 1000000, t % 1000000, ty, code, val)
body, t = [], 10000
for i in range(30):
    body += [ev(t, 3, 0x35, 100 + i), ev(t, 3, 0x36, 200), ev(t, 0, 2, 0)]
    if i == 0: body.append(ev(t, 1, 0x14a, 1))
    body += [ev(t, 3, 0x00, 100 + i)] + ([ev(t, 3, 0x01, 200)] if i == 0 else []) + [ev(t, 0, 0, 0)]
    t += 12000
body += [ev(t, 0, 2, 0), ev(t, 1, 0x14a, 0), ev(t, 0, 0, 0)]
d = scratch_dir('adv35-')
path = os.path.join(d, 'protocol-a.evemu')
open(path, 'w').write(header() + '\n'.join(body) + '\n')
try:
    r = subprocess.run([BIN, 'replay', '--summary', path], capture_output=True, text=True, timeout=50)
except subprocess.TimeoutExpired:
    broken('replay did not finish within 50 s')
if r.returncode != 0: setup_error('replay exit %d: %s' % (r.returncode, r.stderr[-500:]))
if 'strokes: 1' not in r.stdout: setup_error('expected one stroke: %s' % r.stdout)
dm = Daemon(replay=path, loop=False)
time.sleep(2)
log = dm.stderr()
dm.stop()
blamed = [l for l in log.splitlines() if 'kernel bug' in l and 'SYN_MT_REPORT' in l]
counted = [l for l in r.stdout.splitlines() if 'protocolAReports' in l]
if blamed:
    broken('a well-formed protocol-A device is logged as a kernel bug (%d lines; summary: %s): %s'
           % (len(blamed), counted[0] if counted else '-', blamed[0][-160:]))
if counted:
    broken('a well-formed protocol-A device counts its SYN_MT_REPORTs as a device fault: %s' % counted[0])
held('protocol-A framing is not counted as a kernel bug')
