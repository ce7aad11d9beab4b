#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    base = "resume: 100\nhistory: 10\n"
    d = start_daemon(rec, loop=False, speed=3.0, config=base)
    problems = []
    ref = Conn(d.sock); r = ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    old = Conn(d.sock)
    st = State(); msgs = []
    ctl = Conn(d.sock)
    n = 0; last = time.time()
    cfgs = ["resume: 5000\nhistory: 3\nmaxLineLength: 1000\nqueue:\n  mergeAfter: 2000\n",
            "resume: [\n", "bogus: 1\n", "resume: 7\nhistory: 50\nmaxLineLength: 1000\n"]
    dl = time.time() + 40
    while time.time() < dl and len(st.done) < len(rst.done):
        m = ref.read(timeout=20); msgs.append(m); st.feed(m)
        if time.time() - last > 0.4:
            with open(d.cfg, "w") as f: f.write(cfgs[n % len(cfgs)])
            d.send_signal(signal.SIGHUP); n += 1; last = time.time()
    if st.errors: problems.append("stream errors across %d reloads: %s" % (n, st.errors[:3]))
    other = [m["type"] for m in msgs[1:] if m.get("type") not in ("began", "moved", "ended", "cancelled")]
    if other: problems.append("reload put %s into the stream" % other[:5])
    if st.done != rst.done: problems.append("strokes differ from replay across reloads")
    if st.seqs != list(range(st.seqs[0], st.seqs[0] + len(st.seqs))): problems.append("seq gap across reloads")
    time.sleep(0.5)
    L = ctl.request({"id": 2, "request": "stats"})["daemon"]["seq"]
    # history and resume need a restart: the start values hold
    h = ctl.request({"id": 3, "request": "history"})
    if len(h["strokes"]) != 10 and not h.get("cursor"): problems.append("history after reload holds %d strokes (start value 10)" % len(h["strokes"]))
    s = ctl.request({"id": 4, "request": "stats"})["daemon"]
    if s["completedStrokes"] != 10: problems.append("completedStrokes %d after reloads (history: 10 at start)" % s["completedStrokes"])
    c = Conn(d.sock); r = c.request({"id": 1, "request": "subscribe", "resumeAfter": L - 100}); c.close()
    if r.get("resumed") is not True: problems.append("resume window shrank by reload: %r" % r)
    c = Conn(d.sock); r = c.request({"id": 1, "request": "subscribe", "resumeAfter": L - 101}); c.close()
    if r.get("resumed") is not False: problems.append("resume window grew by reload: %r" % r)
    # maxLineLength: new connections get the reloaded value, old keep theirs
    new = Conn(d.sock)
    if new.hello.get("maxLineLength") != 1000: problems.append("new hello maxLineLength %s" % new.hello.get("maxLineLength"))
    r = old.request({"id": 5, "request": "ping", "pad": "x" * 3000})
    if r.get("type") != "reply": problems.append("old connection's 3000-byte line refused after reload: %r" % r)
    return problems, n
problems, n = main()
verdict(bool(problems), "%d SIGHUP reloads mid-stream: %s" % (n, problems[:6] if problems else "stream untouched, restart-only keys kept, maxLineLength per connection"))
