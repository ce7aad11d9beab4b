#!/usr/bin/env python3
"""replay --summary counts (strokes, ended, cancelled, still active, frames, points moved) equal the events
replay prints, for every fixture, with --hover and --gestures; the three formats of 03 agree."""
import os, subprocess, sys, json, glob, collections
S = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '../..', '.build/debug/strokes'))
FIX = os.environ.get('FIX', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'ReplayTests/Fixtures'))
bad = []
files = sorted(glob.glob(os.path.join(FIX, '*.evemu')) + glob.glob(os.path.join(FIX, '*.yml')) + glob.glob(os.path.join(FIX, '*.txt')))
for f in files:
    for extra in ([], ['--hover'], ['--gestures']):
        r = subprocess.run([S, 'replay'] + extra + [f], capture_output=True, text=True, timeout=30)
        ev = [json.loads(l) for l in r.stdout.splitlines()]
        c = collections.Counter(e['type'] for e in ev)
        s = subprocess.run([S, 'replay', '--summary'] + extra + [f], capture_output=True, text=True, timeout=30)
        sm = {}
        for l in s.stdout.splitlines():
            if ':' in l: k, v = l.split(':', 1); sm.setdefault(k.strip(), v.strip())
        end = ev[-1] if ev else {}
        for k, v in [('strokes', c['began']), ('ended', c['ended']), ('cancelled', c['cancelled']),
                     ('still active', len(end.get('stillActive', []))), ('frames', end.get('frames')), ('points moved', c['moved'])]:
            if sm.get(k) != str(v): bad.append(f'{os.path.basename(f)} {extra} {k}: summary {sm.get(k)} events {v}')
        if '--hover' in extra and c['hover'] and sm.get('hover events') != str(c['hover']):
            bad.append(f'{os.path.basename(f)} hover: {sm.get("hover events")} vs {c["hover"]}')
sums = set()
for f in glob.glob(os.path.join(FIX, '03-atmel*')):
    s = subprocess.run([S, 'replay', '--summary', f], capture_output=True, text=True, timeout=30).stdout
    sums.add('\n'.join(l for l in s.splitlines() if not l.startswith('format:')))
if len(sums) != 1: bad.append('03 summaries differ between evemu/evtest/yaml')
if bad: print('BROKEN: ' + '; '.join(bad[:5])); sys.exit(1)
print(f'HELD: summary matches events for {len(files)} fixtures x 3 option sets; 03 formats agree')
