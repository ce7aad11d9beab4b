#!/usr/bin/env python3
"""holds-116 - documented decisions hold on unseen hardware: semi-MT flagged, protocol A
through single-touch emulation, no invented positions, a pen already in proximity is not guessed.

Recordings (github whot/evemu-devices @ 3fa30580, MIT (c) Red Hat):
  e12 ALPS DualPoint and e21 ALPS GlidePoint (INPUT_PROP_SEMI_MT): every `began` carries the
      `semiMT` flag (docs/decoder.md "Devices without slots").
  e14 N-Trig MultiTouch (protocol A, SYN_MT_REPORT, 2 fingers): decoded through ABS_X/ABS_Y +
      BTN_TOUCH: one stroke at a time, never two concurrent (documented decision; libinput
      would use mtdev and see two touches).
  e05 eGalax Inc. USB TouchController: declares BTN_TOOL_PEN + ABS_X/ABS_Y but reports its
      coordinates on ABS_Z/ABS_RX and never sends ABS_X/ABS_Y nor BTN_TOOL_PEN: nothing is
      published (no invented position, "No invented values"), no crash.
  e19 Wacom Cintiq 22HDT Pen: the recording starts with the pen in proximity (its first
      BTN_TOOL_PEN event is a 0); the touch at frames 51..75 is not published, as documented
      ("until the device sends a BTN_TOOL_* bit nothing is published"); `libinput replay` of the
      same file would create a uinput device with every key up, so it too starts without a tool.
Result: holds. Exit 0 while it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)


def main():
    ok_all = True
    for rec in ('evemu-devices/e12-alps-dualpoint.evemu', 'evemu-devices/e21-alps-glidepoint-2fg-tap.evemu'):
        p, ev = replay(rec)
        b = [e for e in ev if e['type'] == 'began']
        ok = p.returncode == 0 and b and all('semiMT' in e.get('flags', []) for e in b)
        print('%s: %d strokes, all flagged semiMT: %s' % (rec, len(b), bool(ok)))
        ok_all &= bool(ok)
    p = run('replay', '--summary', 'evemu-devices/e14-ntrig-2finger.evemu')
    m = re.search(r'most concurrent:\s*(\d+)', p.stdout)
    ok = p.returncode == 0 and m and int(m.group(1)) == 1
    print('e14 protocol A: most concurrent %s (1 expected: single-touch emulation)' % (m.group(1) if m else None))
    ok_all &= bool(ok)
    p, ev = replay('evemu-devices/e05-egalax-usb-single.evemu')
    ok = p.returncode == 0 and not [e for e in ev if e['type'] != 'replayEnded']
    print('e05 no ABS_X/ABS_Y ever reported: nothing published: %s' % ok)
    ok_all &= ok
    p, ev = replay('evemu-devices/e19-cintiq22hdt-pen.evemu')
    first = min((e['frame'] for e in ev if e['type'] == 'began'), default=None)
    ok = p.returncode == 0 and first is not None and first > 75
    print('e19 first published pen stroke at frame %s (touch at frames 51..75 before any BTN_TOOL_*: not published)' % first)
    ok_all &= ok
    return 0 if ok_all else 1


if __name__ == '__main__':
    sys.exit(main())
