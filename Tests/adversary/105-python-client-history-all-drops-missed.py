#!/usr/bin/env python3
"""`Client.history_all()` ("Every page of a history selection, oldest first") throws away each
page's `missed` (docs/protocol.md, "History pages": "When strokes of the selection left the
daemon's history between two pages ... the next page says how many with "missed": n"): when the
history ring turns over while it pages (a large history, a busy device, the daemon pacing the
client's requests: "Limits"), it returns a shorter list with no sign that strokes of the
selection are missing. `history()` page by page does report it; the convenience call hides it.

Daemon: recording 01 at 10x, `history: 32`, `historyPageBytes: 4096` (a stroke or two a page),
requests paced to 4 KiB/s (`requests.burstBytes: 65536`, `bytesPerSecond: 4096`) so that paging
takes seconds while strokes complete. Correct: history_all returns the whole selection (32) or
tells how many it missed (an attribute, a warning, an error). Broken: fewer strokes, silently."""
import sys, os, time, warnings
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'clients', 'python'))
from common import *
from strokes_client import Client, StrokesError

d = Daemon(config='history: 32\nhistoryPageBytes: 4096\nrequests:\n  burstBytes: 65536\n  bytesPerSecond: 4096\n', speed=10)
time.sleep(4)
if stats(d.sock)['daemon']['completedStrokes'] < 32: setup_error('history not full yet')
cl = Client.connect(d.sock, timeout=30)
try:
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        strokes = cl.history_all()
except StrokesError as e:
    held('history_all reported the eviction: %r' % e)
cl.close()
if len(strokes) >= 32 or getattr(strokes, 'missed', None) or w:
    held('history_all returned %d strokes (missed %r, warnings %d)' % (len(strokes), getattr(strokes, 'missed', None), len(w)))
ids = [s.stroke for s in strokes]
broken('history_all returned %d of the 32 strokes of its selection (%s ... %s): %d left the history while it '
       'paged (the pages said so with missed) and nothing tells the caller' % (len(strokes), ids[:3], ids[-3:], 32 - len(strokes)))
