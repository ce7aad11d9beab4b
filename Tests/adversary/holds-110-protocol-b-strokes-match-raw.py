#!/usr/bin/env python3
"""holds-110 - protocol-B recordings of 11 unseen devices: strokes match the raw kernel events.

Recordings (github whot/evemu-devices @ 3fa30580, MIT (c) Red Hat; never in the fixtures):
Wacom Cintiq 13HD touch Finger, Wacom ISDv4 E6 Finger (2-finger circle), Wacom Bamboo 16FG
Finger (16 slots, 2-finger swipe), eGalax PCAP tap, ETPS/2 Elantech (Samsung 700Z3A clickpad),
ALPS DualPoint (semi-MT), EP0430M09 (4 fingers), QUANTA OpticalTouchScreen, ELAN CANDO,
Atmel maXTouch fast taps (9 taps of 1-2 frames), ALPS GlidePoint (semi-MT 2-finger tap).

Expected: per slot, every ABS_MT_TRACKING_ID >= 0 in a free slot (or replacing another ID) is a
stroke; -1 ends it; a stroke starts at the slot's position at the end of its first frame and
ends with the last position before the lift (docs/decoder.md "Frames"); each `began` has exactly
one `ended`/`cancelled`; nothing is left active. Independent model below counts from the raw file.
Result at the time of writing: holds for all 11. Exit 0 while it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)


RECS = ['e01-cintiq13hd-finger', 'e02-isdv4-e6-finger-circle', 'e03-bamboo16fg-finger-swipe',
        'e04-egalax-pcap-tap', 'e10-elantech-samsung', 'e12-alps-dualpoint', 'e15-ep0430m09-4finger',
        'e16-quanta-optical-hover', 'e17-elan-cando-drag', 'e18-atmel-fast-taps',
        'e21-alps-glidepoint-2fg-tap']


def model(path):
    axes = evemu_axes(path)
    nslots = axes[0x2f][1] + 1
    slot, st, contacts = 0, {}, []
    for fi, fr in enumerate(evemu_frames(path), 1):
        for (_, ty, code, v) in fr:
            if ty != 3:
                continue
            if code == 0x2f:
                slot = v
                continue
            if not 0 <= slot < nslots:
                continue
            s = st.setdefault(slot, {'c': None, 'x': None, 'y': None, 'last': None})
            if code == 0x39:
                if v >= 0:
                    if s['c'] is not None:
                        if s['c']['tid'] == v:
                            continue
                        s['c']['end'] = (s['last'], fi)
                    s['c'] = {'tid': v, 'start': None, 'end': None}
                    contacts.append(s['c'])
                elif s['c'] is not None:
                    s['c']['end'] = (s['last'], fi)
                    s['c'] = None
            elif code == 0x35:
                s['x'] = v
            elif code == 0x36:
                s['y'] = v
        for s in st.values():
            c = s['c']
            if c is not None and s['x'] is not None and s['y'] is not None:
                if c['start'] is None:
                    c['start'] = ((s['x'], s['y']), fi)
                s['last'] = (s['x'], s['y'])
    return contacts


def main():
    broken = False
    for name in RECS:
        rec = 'evemu-devices/%s.evemu' % name
        exp = model(rec)
        p, events = replay(rec)
        st = lifecycles(events)
        got = sorted((s['began']['frame'], (s['began']['x'], s['began']['y']),
                      (s['ends'][0]['x'], s['ends'][0]['y']) if s['ends'] else None,
                      s['ends'][0]['frame'] if s['ends'] else None) for s in st.values())
        want = sorted((c['start'][1], c['start'][0], c['end'][0] if c['end'] else None,
                       c['end'][1] if c['end'] else None) for c in exp if c['start'])
        life = all(len(s['ends']) == 1 for s in st.values())
        still = [e for e in events if e.get('type') == 'replayEnded' and e.get('stillActive')]
        ok = p.returncode == 0 and got == want and life and not still
        if not ok:
            print('   differences:', [g for g in got if g not in want][:3], [w for w in want if w not in got][:3])
        print('%-34s raw contacts %2d, strokes %2d, one end each %s, start/end match %s' % (
            name, len(exp), len(st), life, ok))
        broken |= not ok
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
