#!/usr/bin/env python3
"""Holds 131: single-touch recordings (BTN_TOUCH + ABS_X/ABS_Y, evemu / libinput YAML with two
devices / evtest) that start mid-motion: motion before the first BTN_TOUCH is adopted; a first
press cancels it (`notTouching`) and begins the real stroke in the same frame; a first release
ends it; SYN_DROPPED before/after the first BTN_TOUCH, press+release in one frame, repeated
BTN_TOUCH values. `strokes replay`, `replay --summary`, `render` and `daemon --replay`
(+ subscriber, resumeAfter 0) agree event for event; every began gets exactly one end; the loop
(`daemon --replay`, default loop) re-applies the first-BTN_TOUCH rule each round.

docs/decoder.md "Devices without slots"; docs/protocol.md `notTouching`, `replayRestarted`.
"""
import sys, os, time, json, socket, subprocess, tempfile, re, shutil, signal
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import *  # noqa: F401,F403 (the helpers every script here shares)
d = tempfile.mkdtemp(dir='/tmp')

# A single-touch screen: BTN_TOUCH, ABS_X / ABS_Y and ABS_PRESSURE, 10 units/mm.
ST_HEADER = crafted_header('ST Test', {0x00: (0, 1000, 10), 0x01: (0, 1000, 10), 0x18: (0, 255, 10)}, bus=3)
def evemu(frames):
    return ST_HEADER + '\n'.join(frame_events(frames)) + '\n'
def evtest(frames):
    L = ["Input driver version is 1.0.1", "Input device ID: bus 0x3 vendor 0x1234 product 0x5678 version 0x1",
         'Input device name: "EVT ST"', "Supported events:", "  Event type 0 (EV_SYN)", "  Event type 1 (EV_KEY)",
         "    Event code 330 (BTN_TOUCH)", "  Event type 3 (EV_ABS)", "    Event code 0 (ABS_X)", "      Value    500",
         "      Min        0", "      Max     1000", "      Resolution 10", "    Event code 1 (ABS_Y)", "      Value    600",
         "      Min        0", "      Max     1000", "      Resolution 10", "Properties:", "Testing ... (interrupt to exit)"]
    nm = {(3, 0): 'ABS_X', (3, 1): 'ABS_Y', (1, 330): 'BTN_TOUCH'}
    t = 0.0
    for fr in frames:
        t += 0.01
        for ty, c, v in fr:
            if ty == 0: L.append("Event: time %.6f, -------------- SYN_DROPPED ------------" % t); continue
            L.append("Event: time %.6f, type %d (%s), code %d (%s), value %d" % (t, ty, 'EV_KEY' if ty == 1 else 'EV_ABS', c, nm[(ty, c)], v))
        L.append("Event: time %.6f, -------------- SYN_REPORT ------------" % t)
    return '\n'.join(L) + '\n'
def yaml2(devs):
    out = ["version: 1", "ndevices: %d" % len(devs), "libinput:", "  version: 1.23.0", "system:", '  kernel: "x"', "devices:"]
    for n, (name, frames) in enumerate(devs):
        out += ["  - node: /dev/input/event%d" % (n + 1), "    evdev:", '      name: "%s"' % name, "      id: [3, 4660, 22136, 1]",
                "      codes:", "        1: [330]", "        3: [0, 1]", "      absinfo:", "        0: [0, 1000, 0, 0, 10]",
                "        1: [0, 1000, 0, 0, 10]", "      properties: []", "    events:"]
        for us, evs in frames:
            out.append("    - evdev:")
            for t, c, v in evs + [(0, 0, 0)]: out.append("      - [0, %6d, %d, %d, %d]" % (us, t, c, v))
    return '\n'.join(out) + '\n'

X = lambda v: (3, 0, v); Y = lambda v: (3, 1, v); T = lambda v: (1, 330, v); D = (0, 3, 0)
cases = {
    'press.evemu': evemu([[X(100), Y(100)], [X(110)], [T(1), X(120)], [X(130)], [T(0)]]),
    'release.evemu': evemu([[X(100), Y(100)], [X(110)], [T(0), X(120)], [X(130)]]),
    'pressrel1frame.evemu': evemu([[X(100), Y(100)], [X(110)], [T(1), X(120), T(0)], [X(130)]]),
    'dropbefore.evemu': evemu([[X(100), Y(100)], [X(110)], [D, X(999)], [X(120)], [Y(120)], [T(1), X(130)], [X(140)], [T(0)]]),
    'dropafterrel.evemu': evemu([[X(100), Y(100)], [T(0)], [X(110)], [D], [X(120), Y(120)], [X(130)], [T(1)], [X(140)], [T(0)]]),
    'repeat.evemu': evemu([[X(100), Y(100)], [T(1)], [T(1), X(110)], [T(1), X(120)], [T(0)], [T(0), X(130)], [X(140)]]),
    'evtest.txt': evtest([[X(100)], [D], [X(110)], [X(120)], [T(1)], [Y(130)], [T(0)]]),
    'two.yml': yaml2([("ST A", [(10000, [X(100), Y(100)]), (20000, [X(110)]), (30000, [T(1)]), (40000, [X(120)]), (50000, [T(0)])]),
                      ("ST B", [(15000, [X(500), Y(500)]), (25000, [T(0)]), (35000, [X(510)]), (45000, [D]), (55000, [X(520), Y(520)]), (65000, [T(1)]), (75000, [T(0)])])]),
}
problems = []
def daemon_events(f, loop, speed, dur, want=None):
    """A subscriber's stroke events from `daemon --replay f` (resumeAfter 0: from the start)."""
    dm = Daemon(replay=f, loop=loop, speed=speed)
    c = Client(dm.sock); c.send({'id': 1, 'request': 'subscribe', 'resumeAfter': 0})
    msgs = []; end = time.time() + dur
    while time.time() < end:
        m = c.recv(0.3)
        if m is None:
            if c.eof: break
            if want is not None and len([x for x in msgs if x.get('type') in ('began', 'moved', 'ended', 'cancelled')]) >= want: break
            continue
        msgs.append(m)
    c.close(); dm.stop()
    return [m for m in msgs if m.get('type') in ('began', 'moved', 'ended', 'cancelled')]
def strip(e):
    e = dict(e); e.pop('seq', None); return e
try:
    for name, text in cases.items():
        f = os.path.join(d, name); open(f, 'w').write(text)
        r = subprocess.run([BIN, 'replay', f], capture_output=True, text=True, timeout=20)
        if r.returncode != 0: problems.append('%s: replay exit %d %s' % (name, r.returncode, r.stderr[:200])); continue
        ev = [json.loads(l) for l in r.stdout.splitlines()]
        st = [e for e in ev if e['type'] in ('began', 'moved', 'ended', 'cancelled')]
        ends = {}
        for e in st:
            if e['type'] in ('ended', 'cancelled'):
                if e['stroke'] in ends: problems.append('%s: stroke %d ended twice' % (name, e['stroke']))
                ends[e['stroke']] = e['type']
        began = {e['stroke'] for e in st if e['type'] == 'began'}
        still = set(ev[-1].get('stillActive', []))
        if began != set(ends) | still: problems.append('%s: began %s vs ended/cancelled %s + stillActive %s' % (name, began, set(ends), still))
        summ = subprocess.run([BIN, 'replay', '--summary', f], capture_output=True, text=True, timeout=20).stdout
        n = int(re.search(r'^strokes: (\d+)', summ, re.M).group(1))
        nc = int(re.search(r'^cancelled: (\d+)', summ, re.M).group(1))
        if n != len(began) or nc != list(ends.values()).count('cancelled'):
            problems.append('%s: summary strokes %d cancelled %d vs replay %d / %d' % (name, n, nc, len(began), list(ends.values()).count('cancelled')))
        svg = subprocess.run([BIN, 'render', f, '-o', '-'], capture_output=True, text=True, timeout=20).stdout
        rs = {int(m.group(2)): m.group(1) for m in re.finditer(r'class="stroke (\w+)" data-stroke="(\d+)"', svg)}
        want = {s: ends.get(s, 'inProgress') for s in began}
        if rs != want: problems.append('%s: render %s vs replay %s' % (name, rs, want))
        dev = [strip(e) for e in daemon_events(f, False, 0, 2.0, len(st)) if e.get('reason') != 'shutdown']
        if dev != st: problems.append('%s: daemon differs from replay (%d vs %d events)' % (name, len(dev), len(st)))
    # specific rules
    def kinds(name):
        r = subprocess.run([BIN, 'replay', os.path.join(d, name)], capture_output=True, text=True, timeout=20)
        return [(e['type'], e.get('reason'), tuple(e.get('flags', []))) for e in map(json.loads, r.stdout.splitlines()) if e['type'] != 'moved']
    if kinds('press.evemu')[:3] != [('began', None, ('adopted',)), ('cancelled', 'notTouching', ()), ('began', None, ())]:
        problems.append('press: %s' % kinds('press.evemu'))
    if kinds('release.evemu')[:2] != [('began', None, ('adopted',)), ('ended', None, ())]:
        problems.append('release: %s' % kinds('release.evemu'))
    # loop: every round starts over with the first-BTN_TOUCH rule
    loop = daemon_events(os.path.join(d, 'press.evemu'), True, 4, 1.2)
    reasons = [e.get('reason') for e in loop if e['type'] == 'cancelled']
    adopted = [e for e in loop if e['type'] == 'began' and 'adopted' in e.get('flags', [])]
    if len(adopted) < 3 or reasons.count('notTouching') < 3:
        problems.append('loop: adopted %d, cancel reasons %s' % (len(adopted), reasons))
    if problems:
        for x in problems: print(' ', x)
        print('BROKEN: single-touch first-BTN_TOUCH handling: %s' % problems[0]); sys.exit(1)
    print('HELD: %d single-touch recordings agree across replay, --summary, render and daemon --replay; loop re-adopts each round' % len(cases))
    sys.exit(0)
finally:
    shutil.rmtree(d, ignore_errors=True)
