#!/usr/bin/env python3
"""120 - single-touch devices: motion before the first BTN_TOUCH 1 was published as an
"adopted" stroke that ended as a completed stroke, although BTN_TOUCH 1 proves the device was
not touching.

Recordings (never in the project's fixtures), all from github whot/evemu-devices @ 3fa30580
(MIT, (c) 2012-2013 Red Hat), .desc + .events concatenated where the events file has no header:
  evemu-devices/e07-uclogic-wp5540u-pen.evemu   tablets/UC-LOGIC Tablet WP5540U Pen.events
      (declares ABS_X/ABS_Y/ABS_PRESSURE + BTN_TOUCH, no BTN_TOOL_*: strokes reads it as a
      single-touch touchscreen). The pen hovers for 1.9 s (40 frames of ABS_X/ABS_Y, no
      pressure), then BTN_TOUCH 1 at frame 41, drawing until BTN_TOUCH 0 at frame 500.
  evemu-devices/e13-synaptics-fdo23890.evemu    touchpads/SynPS2 Synaptics TouchPad-fdo23890.desc+.events
      (single-touch Synaptics PS/2 pad: 3 frames of approach with ABS_PRESSURE 8, then BTN_TOUCH 1).
  evemu-devices/e11-bcm5974-3finger-click.evemu touchpads/bcm5974.three-finger-click.events
      (protocol A, decoded through its single-touch emulation: first frame has ABS_X/ABS_Y,
      BTN_TOUCH 1 comes in frame 2).

Expected: docs/decoder.md "Devices without slots": a single-touch device has "one slot, whose
contact is BTN_TOUCH". The kernel sends a key only when it changes, so a recording whose first
BTN_TOUCH event is 1 proves the key was 0 before: nothing touched before that frame. The number
of strokes must equal the number of BTN_TOUCH presses, and no stroke may begin before the first
press. libinput's fallback (single-touch touchscreen) emits no touch before BTN_TOUCH 1 either
(touch motion is flushed only while a touch is down).

What the binary did (release 41987d1): it published a stroke flagged "adopted" at frame 1 from
hover/approach motion, "ended" (not cancelled) in the frame where BTN_TOUCH became 1, and then a
second stroke for the real touch: e07 gave 2 completed strokes for 1 press (a 1.9 s phantom line
drawn by `render` and kept in history), e13 3 for 2, e11 6 for 5.

Held now: a recording has no key state, so motion before the first BTN_TOUCH is still adopted
(a dump that starts mid-touch needs it), but a first BTN_TOUCH that is a press voids it:
`cancelled` with reason `notTouching` (docs/decoder.md, "Devices without slots"). This script
checks that the completed (ended) strokes are exactly the presses, that every stroke begun before
the first press is cancelled with `notTouching`, and that each stroke has exactly one end.

Severity: medium (phantom strokes drawn from hovering pens / approaching fingers; clients see
an "ended" drawing stroke that never touched).
Exit 1 while the broken behaviour is present, 0 when it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)


RECS = ['evemu-devices/e07-uclogic-wp5540u-pen.evemu', 'evemu-devices/e13-synaptics-fdo23890.evemu',
        'evemu-devices/e11-bcm5974-3finger-click.evemu']


def main():
    broken = False
    for rec in RECS:
        frames = evemu_frames(rec)
        presses, first_key, first_press_frame, touch = 0, None, None, None
        for i, fr in enumerate(frames, 1):
            for (_, ty, code, val) in fr:
                if ty == 1 and code == 0x14a:
                    if first_key is None:
                        first_key = val
                    if val == 1 and touch != 1:
                        presses += 1
                        if first_press_frame is None:
                            first_press_frame = i
                    touch = val
        p, events = replay(rec)
        st = lifecycles(events)
        early = [s for s in st.values()
                 if s['began'] and first_key == 1 and s['began']['frame'] < first_press_frame]
        early_not_void = [s for s in early
                          if [(e['type'], e.get('reason')) for e in s['ends']] != [('cancelled', 'notTouching')]]
        completed = [k for k, s in st.items() if [e['type'] for e in s['ends']] == ['ended']]
        bad_life = [k for k, s in st.items() if len(s['ends']) != 1]
        ok = p.returncode == 0 and len(completed) == presses and not early_not_void and not bad_life
        print('%s: BTN_TOUCH presses %d (first BTN_TOUCH event value %s at frame %s); completed strokes %d; '
              'begun before the first press %d, not cancelled as notTouching %d -> %s' % (
                  rec, presses, first_key, first_press_frame, len(completed), len(early), len(early_not_void),
                  'ok' if ok else 'BROKEN'))
        broken |= not ok
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
