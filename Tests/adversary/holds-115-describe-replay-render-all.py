#!/usr/bin/env python3
"""holds-115 - describe / replay / render on all 31 collected recordings: no crash, no hang,
SVG well formed with one stroke element per published stroke; refusals name file:line.

Recordings: every file in evemu-devices/ (sources and licences in evemu-devices/SOURCES.md): 21 evemu recordings of
20 devices from whot/evemu-devices (touchscreens, touchpads incl. semi-MT and protocol A, pens,
a lens cursor, a header-only recording with no events), 6 pasted evtest dumps, 3 palm captures,
1 mid-stream ft5x06 capture.
Expected: `describe` and `replay` exit 0, or 65 with `FILE:LINE:` for the two garbled pastes
(v01, v03); `render -o x.svg` exits 0 and the SVG parses as XML with as many
class="stroke ..." elements as `replay` printed `began` lines; each command within 30 s.
v02 (mangled header, see finding 121) is excluded here.
Result: holds. Exit 0 while it holds.
"""
import json, os, re, shutil, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from recordings_round import *  # noqa: E402,F401,F403 (BIN, run, replay, evemu_frames, evemu_axes, lifecycles)
os.chdir(HERE)
import xml.etree.ElementTree as ET

REFUSED = {'v01-fts_ts-evtest-with-dmesg.txt', 'v03-elants-lkml-evtest-wrapped.txt'}
SKIP = {'SOURCES.md', 'LICENSE'}


def main():
    broken = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir('evemu-devices')):
            if name in SKIP:
                continue
            rec = 'evemu-devices/' + name
            d = run('describe', rec, timeout=30)
            p, ev = replay(rec)
            if name in REFUSED:
                ok = d.returncode == 65 and p.returncode == 65 and re.search(re.escape(rec) + r':\d+:', p.stderr)
                print('%-58s refused with file:line: %s' % (name, bool(ok)))
                broken |= not ok
                continue
            svg = os.path.join(tmp, 'out.svg')
            r = run('render', rec, '-o', svg, timeout=30)
            began = sum(1 for e in ev if e.get('type') == 'began')
            drawn = -1
            try:
                root = ET.parse(svg).getroot()
                drawn = sum(1 for el in root.iter() if (el.get('class') or '').startswith('stroke'))
            except Exception as exc:  # noqa
                print('   svg does not parse:', exc)
            ok = d.returncode == 0 and p.returncode == 0 and r.returncode == 0 and drawn == began
            print('%-58s describe %d replay %d render %d, strokes %d, drawn %d -> %s' % (
                name, d.returncode, p.returncode, r.returncode, began, drawn, 'ok' if ok else 'BROKEN'))
            broken |= not ok
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
