#!/usr/bin/env python3
"""holds-111 - pens of 3 unseen tablets are strokes only while touching; hover otherwise.

Recordings (github whot/evemu-devices @ 3fa30580, MIT (c) Red Hat):
  evemu-devices/e08-intuos4-stylus-drag.evemu  Wacom Intuos4 6x9 (.desc + stylus-drag.events)
  evemu-devices/e19-cintiq22hdt-pen.evemu      Wacom Cintiq 22HDT Pen, 81 s: pen, eraser, pencil and
                                     airbrush tools, tilt, distance, starts with the pen in proximity
  evemu-devices/e06-genius-easypen.evemu       Genius EasyPen i405X: proximity and motion only, never touches

Expected (docs/decoder.md "Pens"; kernel event-codes.rst): a stroke is BTN_TOUCH 1 with a tool
in proximity; its toolType is the BTN_TOOL_* in proximity; hover events only while in
proximity and not touching; every began has one end. Raw state is computed below from the file.
Result: holds. (The Cintiq 22HDT recording starts with the pen already in proximity and touching
at frame 51 before any BTN_TOOL_* event; strokes does not publish that first touch, as
documented: "until the device sends a BTN_TOOL_* bit nothing is published".) Exit 0 while it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)


PENS = {0x140: 'pen', 0x141: 'eraser', 0x142: 'brush', 0x143: 'pencil', 0x144: 'airbrush'}
RECS = {'evemu-devices/e08-intuos4-stylus-drag.evemu': 1, 'evemu-devices/e19-cintiq22hdt-pen.evemu': 37,
        'evemu-devices/e06-genius-easypen.evemu': 0}


def main():
    broken = False
    for rec, nstrokes in RECS.items():
        state, tool, touch, seen = {}, None, 0, False
        for fi, fr in enumerate(evemu_frames(rec), 1):
            for (_, ty, code, v) in fr:
                if ty == 1 and code in PENS:
                    seen = True
                    if v:
                        tool = PENS[code]
                    elif tool == PENS[code]:
                        tool = None
                if ty == 1 and code == 0x14a:
                    touch = v
            state[fi] = (tool if seen else None, touch)
        p, events = replay(rec, '--hover')
        bad = []
        for e in events:
            tl, tch = state.get(e.get('frame'), (None, 0))
            if e['type'] in ('began', 'moved') and not (tch and tl and e.get('toolType') == tl):
                bad.append(e)
            if e['type'] == 'hover' and e['phase'] == 'motion' and (tch and tl):
                bad.append(e)
        st = lifecycles(events)
        life = all(len(s['ends']) == 1 for s in st.values())
        ok = p.returncode == 0 and not bad and life and len(st) == nstrokes
        print('%s: strokes %d (expected %d), events contradicting the pen state %d, one end each %s -> %s'
              % (rec, len(st), nstrokes, len(bad), life, 'ok' if ok else 'BROKEN'))
        broken |= not ok
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
