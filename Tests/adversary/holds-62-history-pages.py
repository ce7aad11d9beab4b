#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)
# Promise (protocol.md "History pages"): a reply holds as many strokes as fit in historyPageBytes (always at
# least one), oldest first; cursor pages together give the whole selection; a cursor the daemon cannot
# have given gets badArgument; completedStrokes at most `history`.
d = Daemon(config='historyPageBytes: 20000\nhistory: 40\n', replay=REC01, loop=True, speed=10)
time.sleep(6)
c = Client(d.sock)
r = c.request({'id': 1, 'request': 'history'})
pages = [r]; 
while 'cursor' in pages[-1]:
    pages.append(c.request({'id': len(pages) + 1, 'request': 'history', 'cursor': pages[-1]['cursor']}))
    if len(pages) > 500: broken('more than 500 pages')
sizes = []
for p in pages:
    if p.get('type') != 'reply': broken('page error: %r' % p)
    if not p['strokes']: broken('empty page %r' % p)
    size = len(json.dumps(p['strokes'], separators=(',', ':')))
    sizes.append((len(p['strokes']), size))
    if len(p['strokes']) > 1 and size > 20000 + 2000: broken('page of %d strokes is %d bytes > historyPageBytes 20000' % (len(p['strokes']), size))
ids = [s['stroke'] for p in pages for s in p['strokes']]
missed = sum(p.get('missed', 0) for p in pages)
print('pages', sizes, 'ids', len(ids), 'missed', missed)
if len(ids) + missed > 40: broken('more than history=40 strokes: %d' % len(ids))
st = stats(d.sock)
if st['daemon']['completedStrokes'] > 40: broken('completedStrokes %d > history 40' % st['daemon']['completedStrokes'])
for cur in ['999999-999999', '0-99999999999', 'abc', '', '-1-5', '5-1', '18446744073709551615-18446744073709551615', '0-0-0']:
    x = c.request({'id': 'c', 'request': 'history', 'cursor': cur})
    print(repr(cur), '->', json.dumps(x)[:150])
    if cur in ('999999-999999', '0-99999999999', 'abc', '18446744073709551615-18446744073709551615') and x.get('error') != 'badArgument':
        broken('cursor %r the daemon never gave -> %s' % (cur, json.dumps(x)[:200]))
d.stop()
held('history paging within historyPageBytes, bad cursors refused')
