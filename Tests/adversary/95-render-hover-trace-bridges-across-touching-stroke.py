#!/usr/bin/env python3
"""`strokes render --hover` "draws where a pen (or a contact that reports a distance) hovered, as
thin dashed grey lines" (render --help; README "Pens and hover": "`--hover` adds the hover traces").
A hover trace is one polyline per proximity, though: the hover before a touch and the hover after
it are joined by a straight dashed segment from where the pen touched down to where it lifted.
On recording 17 (Cintiq 12WX, pen then eraser) that is a 525 px line across the picture for the
pen and a 543 px one for the eraser, along which the pen never hovered (it was drawing stroke 1 /
erasing stroke 2 somewhere else). `replay --hover` says the hover stops at `began` and resumes
after `ended`. Expected: no rendered hover segment longer than the longest step between two
hover events that follow each other with no stroke between them.
Usage: python3 95-...py [BINARY]"""
import os, sys, re, json, math, subprocess
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *

rec = os.path.join(FIX, '17-wacom-cintiq12wx-pen-and-eraser.evemu')
try:
    r = subprocess.run([BIN, 'render', rec, '--hover', '-o', '-'], capture_output=True, text=True, timeout=50)
except subprocess.TimeoutExpired:
    broken('render --hover did not finish in 50 s')
if r.returncode != 0: setup_error('render exit %d: %s' % (r.returncode, r.stderr[-300:]))
svg = r.stdout
rect = re.search(r'<rect class="sensor" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
rng = re.search(r'X (-?\d+)…(-?\d+), Y (-?\d+)…(-?\d+)', svg)
hover = re.search(r'<g class="hover".*?</g>', svg, re.S)
if not (rect and rng and hover): setup_error('unexpected SVG structure (sensor rect, legend ranges, hover group)')
X0, Y0, W, H = map(float, rect.groups()); xmin, xmax, ymin, ymax = map(int, rng.groups())
px = lambda x, y: (X0 + (x - xmin) / (xmax - xmin) * W, Y0 + (y - ymin) / (ymax - ymin) * H)

# the longest step between consecutive hover events with no stroke event between them
longest, prev = 0.0, None
for l in replay_output('--hover', rec).splitlines():
    m = json.loads(l)
    if m['type'] == 'hover':
        p = px(m['x'], m['y'])
        if prev is not None and m['phase'] != 'proximityIn': longest = max(longest, math.dist(prev, p))
        prev = None if m['phase'] == 'proximityOut' else p
    elif m['type'] in ('began', 'ended', 'cancelled'):
        prev = None
rendered = []
for d in re.findall(r'd="([^"]*)"', hover.group(0)):
    n = list(map(float, re.findall(r'-?[\d.]+', d)))
    pts = list(zip(n[::2], n[1::2]))
    rendered += [math.dist(a, b) for a, b in zip(pts, pts[1:])]
if not rendered: setup_error('no hover trace drawn')
bad = sorted((round(s) for s in rendered if s > longest + 2.0), reverse=True)
if bad:
    broken('render --hover draws hover segments of %s px, where the longest real hover step is %.0f px: '
           'the trace bridges the touching stroke with a straight dashed line' % (bad, longest))
held('hover traces stop at a touch and resume after it (longest segment %.0f px)' % max(rendered))
