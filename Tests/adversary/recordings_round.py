"""What the recordings round's scripts (120, holds-110 to holds-116) share: the binary
(`common.BIN`), `strokes` run and replayed, an evemu file's raw frames and axes, and stroke
lifecycles from replay's events. Each script does `from recordings_round import *`."""
import json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN  # noqa: E402 (argv[1], or the debug build)


def strokes_bin():
    return BIN


def run(*args, timeout=50):
    return subprocess.run([strokes_bin(), *args], capture_output=True, text=True, timeout=timeout)


def replay(path, *extra):
    p = run('replay', *extra, path)
    events = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    return p, events


def evemu_frames(path):
    """Raw kernel events of an evemu file, split into frames at SYN_REPORT: [(sec, type, code, value)]."""
    frames, cur = [], []
    for line in open(path, errors='replace'):
        if line.startswith('E:'):
            p = line.split()
            ev = (float(p[1]), int(p[2], 16), int(p[3], 16), int(p[4]))
            cur.append(ev)
            if ev[1] == 0 and ev[2] == 0:
                frames.append(cur)
                cur = []
    if cur:
        frames.append(cur)
    return frames


def evemu_axes(path):
    axes = {}
    for line in open(path, errors='replace'):
        if line.startswith('A:'):
            p = line.split()
            axes[int(p[1], 16)] = (int(p[2]), int(p[3]))
    return axes


def lifecycles(events):
    """stroke id -> {'began': ev, 'ends': [ev...], 'moved': n}"""
    st = {}
    for e in events:
        t = e.get('type')
        if t == 'began':
            st[e['stroke']] = {'began': e, 'ends': [], 'moved': 0}
        elif t == 'moved':
            st.setdefault(e['stroke'], {'began': None, 'ends': [], 'moved': 0})['moved'] += 1
        elif t in ('ended', 'cancelled'):
            st.setdefault(e['stroke'], {'began': None, 'ends': [], 'moved': 0})['ends'].append(e)
    return st
