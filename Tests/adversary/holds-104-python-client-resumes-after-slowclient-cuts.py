#!/usr/bin/env python3
"""Holds (clients/python README: "reconnects ... and resumes after the last sequence number it
delivered: no message is delivered twice or skipped"): a blocking Client whose consumer is slow
and stops for 3 s every 3 s is cut by the daemon (`goodbye` `slowClient`, stall timer
`disconnectAfterSeconds: 1`, moves merged from 32 queued) several times; each time it resumes
(`resume: 8000` holds the backlog) and at every moment no finger is down,
`seq - snapshot seq = messages delivered + sum(merged)`: nothing lost across the cuts, nothing
twice. Recording 03 looped at 20x (its socket must fill within a pause: batched writes fill it more slowly)."""
import sys, os, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, Snapshot, Began, Moved, Ended, Cancelled, Gap, Goodbye

d = Daemon(config='resume: 8000\nqueue:\n  mergeAfter: 32\n  disconnectAfterSeconds: 1\n', replay=REC03, speed=20)
cl = Client.connect(d.sock, timeout=20)
snap = None; D = set(); M = 0; live = set(); checkpoints = []; goodbyes = 0; dups = 0; gaps = 0
t0 = lastpause = time.time()
for ev in cl.subscribe():
    if isinstance(ev, Gap):
        gaps += 1; snap = None; continue   # start the accounting over from the snapshot that follows
    if isinstance(ev, Snapshot):
        snap = ev.seq; live = {s.stroke for s in ev.strokes}; D = set(); M = 0; continue
    if isinstance(ev, Goodbye): goodbyes += 1; continue
    if getattr(ev, 'seq', None) is None or snap is None: continue
    if ev.seq in D: dups += 1
    D.add(ev.seq); M += (ev.merged or 0) if isinstance(ev, Moved) else 0
    if isinstance(ev, Began): live.add(ev.stroke)
    if isinstance(ev, (Ended, Cancelled)): live.discard(ev.stroke)
    if not live: checkpoints.append((ev.seq, ev.seq - snap - len(D) - M))
    time.sleep(0.0005)
    if time.time() - lastpause > 3: time.sleep(3.0); lastpause = time.time()
    if time.time() - t0 > 22: break
cl.close()
if goodbyes < 1: setup_error('the client was never cut (no goodbye): nothing tested')
bad = [c for c in checkpoints if c[1] != 0]
if dups: broken('%d sequence numbers delivered twice' % dups)
if bad: broken('sequence numbers lost across %d cuts (%d gaps reported): %s' % (goodbyes, gaps, bad[:5]))
if len(checkpoints) < 10: setup_error('only %d quiet moments to check' % len(checkpoints))
held('%d cuts, %d gaps, %d quiet moments all accounted, no duplicates' % (goodbyes, gaps, len(checkpoints)))
