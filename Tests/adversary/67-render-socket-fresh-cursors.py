#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Script 17's server handed back the same cursor; this one hands out a fresh cursor with every
# page, which the repeat check does not catch: `render --socket` paged for as long as it was fed,
# its memory growing (found on 4fb0361). It asks for the protocol's largest `limit` now and
# refuses more strokes than that, and a page with a cursor and no strokes (every other page here).
pages, running, rss, status, err = render_against_history(
    'advy-fresh-cursor-',
    lambda n: {"strokes": [history_stroke(n * 100 + k) for k in range(100)] if n % 2 else [],
               "cursor": "%d-%d" % (n, n + 1)})
if running:
    broken('render --socket still paging after 20 s: %d history requests, each answered with a fresh cursor, RSS %d MB' % (pages, rss))
if status != 69 or 'no strokes' not in err: broken('render --socket ended %s: %r' % (status, err))
held('render --socket stopped (69) after %d history pages: %s' % (pages, err.strip()))
