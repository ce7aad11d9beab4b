#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from security_round import *  # noqa: F401,F403

# 180: the HTTP listener on a Unix socket serves strokes to peers that socket.allowUids /
# socket.allowGids refuse on the client socket.
# docs/security.md: "Optionally narrower: socket.allowUids / socket.allowGids in the configuration
# admit only root and the listed uids and gids"; the HTTP Unix listener is "guarded like the socket".
try:
    g = mkgroup("advtestg180")
    u1 = mkuser("advtest180a", "advtestg180"); u2 = mkuser("advtest180b", "advtestg180")
    sock = os.path.join(TMP, "s.sock"); hs = os.path.join(TMP, "http.sock")
    p = start_daemon(sock, 'socket:\n  group: advtestg180\n  allowUids: [%d]\nhttp:\n  listen: %s\n' % (u1, hs))
    if p.poll() is not None: finish(False, "daemon did not start with an HTTP Unix listener and allow-lists: " + log_of(p)[-300:])
    main = as_user(u2, g, [g], lambda: first_messages(sock, 1))
    if not (main and main[0].get("error") == "forbidden"):
        finish(True, "uid %d not in allowUids was not refused on the client socket: %r" % (u2, main))
    live = as_user(u2, g, [g], lambda: http_unix(hs, "/live"))
    dev = as_user(u2, g, [g], lambda: http_unix(hs, "/devices"))
    if "200" in status(live) and '"request":"live"' in live:
        finish(True, "uid %d is refused `forbidden` on the client socket (allowUids: [%d]) but the HTTP Unix listener %s "
               "answers it: GET /live -> %s, GET /devices -> %s (%s...)" % (u2, u1, hs, status(live), status(dev), dev.split("\r\n\r\n",1)[-1][:90]))
    finish(False, "HTTP Unix listener refused the peer the allow-list refuses: " + status(live))
except SystemExit: raise
except Exception as e:
    finish(True, "unexpected error: %r" % e)
