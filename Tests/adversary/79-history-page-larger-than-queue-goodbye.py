#!/usr/bin/env python3
"""A client that has not subscribed and has nothing queued asks for `history`: the page holds
several strokes, each cut to half of `queue.disconnectAfterBytes`, so the page as a whole is larger
than the client's queue limit, and the daemon answers with `goodbye` (`slowClient`) and closes
instead of replying. No client can read that history. Two legal configurations:
 A. `queue.disconnectAfterBytes: 65536` (its minimum), `historyPageBytes` default (256 KiB):
    two strokes of 3000 points;
 B. `historyPageBytes: 16777216` (documented only as "at least 4 KiB"), queue limits default
    (4 MiB): three strokes of 24000 points (each cut to 2 MiB).

docs/protocol.md, "Session" 2: each request "gets exactly one `reply` or `error` ..., unless the
daemon ends the connection first (3): a `subscribe` whose snapshot or resumed messages do not fit
the client's queue limits is answered by `goodbye` (`slowClient`) alone" (only `subscribe` named).
"Slow clients": "A snapshot, a `live` reply and a history stroke are kept within half of
`queue.disconnectAfterBytes` ..., so that they fit in a client's queue ... Before, such a contact
made every `subscribe` end in `goodbye` (`slowClient`) until it lifted."; the queue is what "the
socket has not taken yet" (here: an idle client, nothing queued).
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import *  # noqa: F401,F403 (the helpers every script here shares)

def long_strokes(n_fingers, n_points):
    r = GestureScreenRecording()
    r.frame(0, [('d', s, 1000 + 3000 * s, 1000) for s in range(n_fingers)])
    for i in range(1, n_points):
        r.frame(i * 5, [('m', s, 1000 + 3000 * s + (i % 500) * 10, 1000 + (i % 2)) for s in range(n_fingers)])
    r.frame(n_points * 5, [('u', s) for s in range(n_fingers)])
    rec = os.path.join(scratch_dir('adv68-'), 'long.evemu'); open(rec, 'w').write(r.text())
    return rec

problems = []
for name, fingers, points, config in [
        ('A', 2, 3000, 'queue:\n  disconnectAfterBytes: 65536\n'),
        ('B', 3, 24000, 'historyPageBytes: 16777216\n')]:
    d = Daemon(replay=long_strokes(fingers, points), loop=False, speed=0, config=config)
    c = Client(d.sock)
    end = time.time() + 20
    while time.time() < end:
        st = c.request({'id': 's', 'request': 'stats'})
        if st and st.get('daemon', {}).get('completedStrokes') == fingers: break
        time.sleep(0.2)
    else:
        setup_error('%s: the strokes did not complete: %r' % (name, st))
    you = st['you']
    if you['queued'] or you['queuedBytes']: setup_error('%s: the client has something queued: %r' % (name, you))
    h = c.request({'id': 'h', 'request': 'history'}, timeout=30)
    if h is None or h.get('type') != 'reply':
        problems.append('%s (%s): idle unsubscribed client (queued 0) sent {"request":"history"} and got %s, not a reply'
                        % (name, config.strip().replace('\n', ' '), json.dumps(h)))
    else:
        print('%s: history answered, %d strokes, %s' % (name, len(h['strokes']), [s.get('pointsOmitted') for s in h['strokes']]))
    d.stop()
if problems:
    broken('; '.join(problems) + ' (protocol.md "Session" 2: every request gets exactly one reply or error, only a '
           'subscribe is answered by goodbye alone; "Slow clients": history strokes are cut to half of '
           'disconnectAfterBytes "so that they fit in a client\'s queue")')
held('history pages fit the client\'s queue under both configurations')
