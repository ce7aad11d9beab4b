#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "History pages"): the selection is fixed by the first request; strokes of it that left
# the ring between two pages are counted in "missed"; no stroke twice; pages put together + missed = the
# selection; a page holds at least one stroke.
d = Daemon(config='history: 12\nhistoryPageBytes: 4096\n', replay=REC01, loop=True, speed=10)
time.sleep(4)
c = Client(d.sock)
r = c.request({'id': 0, 'request': 'history'})
pages = [r]; t_total = 0
while 'cursor' in pages[-1]:
    time.sleep(0.4)   # strokes complete meanwhile (about 27 a second at 10x)
    pages.append(c.request({'id': len(pages), 'request': 'history', 'cursor': pages[-1]['cursor']}))
    if pages[-1].get('type') != 'reply': broken('page error %r' % pages[-1])
    if len(pages) > 100: break
ids = [s['stroke'] for p in pages for s in p['strokes']]
missed = sum(p.get('missed', 0) for p in pages)
d.stop()
print('pages', len(pages), 'strokes', len(ids), 'missed', missed, 'per page', [len(p['strokes']) for p in pages])
if len(ids) != len(set(ids)): broken('a stroke delivered twice across pages')
if any(not p['strokes'] and 'cursor' in p for p in pages): broken('empty page with a cursor')
if len(ids) + missed != 12 and len(pages) > 1: broken('pages (%d) + missed (%d) != the selection (12)' % (len(ids), missed))
if missed == 0: print('note: nothing missed (paging outran the ring)')
held('history paging under churn: %d strokes + %d missed' % (len(ids), missed))
