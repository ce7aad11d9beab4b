"""docs/decoder.md, "Pasted dumps": a malformed line of evtest's own header (an absinfo line)
stops with `file:line`; README: a malformed file stops with `file:line: what was expected`.

Found by a black-box round on real recordings: a 2006 evtest capture of a "USB Touchscreen
0eef:0001" posted to the Ubuntu forums, where the forum prefixed one header line with ':'
(`:    Event code 0 (X)`). strokes skipped that line, and the `Value` / `Min` / `Max` lines after it,
which belonged to no axis, silently; ABS_X was then undeclared and the whole file was refused as
"'USB Touchscreen 0eef:0001' is not a touch device" with no line, though every touch in it
reports ABS_X. (The capture's licence is not stated: this is a reproduction of its header's shape.)
Now the first orphaned absinfo line is refused with its line."""
from common import *

HEADER = '''Input driver version is 1.0.0
Input device ID: bus 0x3 vendor 0xeef product 0x1 version 0x100
Input device name: "USB Touchscreen 0eef:0001"
Supported events:
  Event type 0 (Reset)
    Event code 0 (Reset)
    Event code 1 (Key)
    Event code 3 (Absolute)
  Event type 1 (Key)
    Event code 330 (Touch)
  Event type 3 (Absolute)
:    Event code 0 (X)
      Value    280
      Min        0
      Max     2047
    Event code 1 (Y)
      Value   1600
      Min        0
      Max     2047
Testing ... (interrupt to exit)
'''
events = ['Event: time 1156443563.386364, type 3 (Absolute), code 0 (X), value 1100',
          'Event: time 1156443563.386366, type 3 (Absolute), code 1 (Y), value 900',
          'Event: time 1156443563.386368, type 1 (Key), code 330 (Touch), value 1',
          'Event: time 1156443563.386370, type 0 (Reset), code 0 (Reset), value 0',
          'Event: time 1156443563.396364, type 1 (Key), code 330 (Touch), value 0',
          'Event: time 1156443563.396366, type 0 (Reset), code 0 (Reset), value 0']
path = os.path.join(scratch_dir('adv121-'), 'pasted.evtest.txt')
open(path, 'w').write(HEADER + '\n'.join(events) + '\n')
r = subprocess.run([BIN, 'replay', path], capture_output=True, text=True, timeout=50)
if r.returncode == 0:
    broken('the orphaned axis values were read (exit 0): %s' % r.stdout[:200])
line = re.search(re.escape(path) + r':(\d+):', r.stderr)
if not line:
    broken('refused without a line (exit %d): %s' % (r.returncode, r.stderr.strip()[-300:]))
if line.group(1) != '13':
    broken('refused at line %s, not at the first orphaned absinfo line (13): %s' % (line.group(1), r.stderr.strip()[-300:]))
if r.returncode != 65:
    broken('exit %d, not 65 (EX_DATAERR): %s' % (r.returncode, r.stderr.strip()[-200:]))
fixed = path.replace('pasted', 'fixed')
open(fixed, 'w').write((HEADER + '\n'.join(events) + '\n').replace(':    Event code 0 (X)', '    Event code 0 (X)'))
out = replay_output('--summary', fixed)
if 'strokes: 1' not in out:
    broken('the unmangled dump does not give its one stroke: %s' % out)
held('orphaned absinfo lines are refused at their line (%s); the unmangled dump gives its stroke' % r.stderr.strip()[-120:])
