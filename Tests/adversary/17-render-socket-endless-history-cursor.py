#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# `strokes render --socket` pages through `history` while replies carry a `cursor`. A server that
# answered every page with the same cursor kept it paging forever (349 requests in 20 s, memory
# growing, no picture; found on 42570d8). A cursor handed back again is now an error.
pages, running, rss, status, err = render_against_history(
    'advy-cursor-', lambda n: {"strokes": [history_stroke(n * 100 + k) for k in range(100)], "cursor": "0-1"})
if running:
    broken('render --socket still paging after 20 s: %d history requests answered with the same cursor, RSS %d MB' % (pages, rss))
if status != 69 or 'a second time' not in err: broken('render --socket ended %s: %r' % (status, err))
held('render --socket stopped (69) after %d history pages: %s' % (pages, err.strip()))
