#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Script 17's server handed back the same cursor; this one hands out a fresh cursor with every
# page, which the repeat check does not catch: `render --socket` paged for as long as it was fed,
# its memory growing (found on 4fb0361). It asks for the protocol's largest `limit` now and
# refuses more strokes than that, and a page with a cursor and no strokes.
DIR = scratch_dir('advy-fresh-cursor-')
pages = [0]

def stroke(i):
    return {"stroke": i, "device": 1, "slot": 0, "trackingId": 1, "state": "ended",
            "points": [{"time": i * 100 + j, "x": j, "y": j, "nx": j / 1000, "ny": j / 1000} for j in range(50)]}

def answer(r, send):
    if r["request"] != "history": return False
    pages[0] += 1
    send({"type": "reply", "id": r.get("id"), "request": "history",
          "strokes": [stroke(pages[0] * 100 + k) for k in range(100)] if pages[0] % 2 else [],
          "cursor": "%d-%d" % (pages[0], pages[0] + 1)})
    return True

path = DIR + '/fake.sock'
FakeDaemon(path, lambda c, send, stop: fake_requests(c, send, stop, answer))
p = subprocess.Popen([BIN, 'render', '--socket', path, '-o', DIR + '/out.svg'], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
PROCS.append(p)
t0 = time.time()
while time.time() - t0 < 20 and p.poll() is None: time.sleep(0.5)
running = p.poll() is None
rss = proc_rss_kb(p.pid) // 1024 if running else 0
p.kill(); p.wait(timeout=5)
if running:
    broken('render --socket still paging after 20 s: %d history requests, each answered with a fresh cursor, RSS %d MB' % (pages[0], rss))
err = p.stderr.read().decode(errors='replace')[:200]
if p.returncode != 69 or 'no strokes' not in err: broken('render --socket ended %s: %r' % (p.returncode, err))
held('render --socket stopped (69) after %d history pages: %s' % (pages[0], err.strip()))
