#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    d = start_daemon(rec, loop=False, speed=2.0, config="maxClientsPerUid: 200\n")
    ref = Conn(d.sock); refmsgs = []
    r = ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    refstate = State()
    joiners = []
    lock = threading.Lock()
    stop = threading.Event()
    def reader(c, st, log):
        try:
            while True:
                m = c.read(timeout=30)
                log.append(m)
                if m.get("type") == "reply" and m.get("request") == "unsubscribe": return
                st.feed(m)
        except Exception as e:
            st.errors.append("reader exc %r" % e)
    rlog = []
    tref = threading.Thread(target=reader, args=(ref, refstate, rlog)); tref.start()
    if r.get("resumed") is not True:
        refstate.errors.append("reference not resumed from 0: %r" % r)
    ctl = Conn(d.sock)
    threads = []
    t0 = time.time()
    while time.time() - t0 < 12.5:
        c = Conn(d.sock); st = State(); log = []
        rep = c.request({"id": 1, "request": "subscribe"}, collect=log)
        st.subseq = rep["seq"]
        th = threading.Thread(target=reader, args=(c, st, log)); th.start()
        joiners.append((c, st, log)); threads.append(th)
        time.sleep(0.2)
    dl = time.time() + 20
    while time.time() < dl:
        s = ctl.request({"id": 9, "request": "stats"})["daemon"]
        if s["liveStrokes"] == 0 and s["completedStrokes"] == len(rst.done): break
        time.sleep(0.2)
    hdone = {}; cur = None
    for k in range(100):
        q = {"id": 10 + k, "request": "history", "limit": 1000}
        if cur: q["cursor"] = cur
        hist = ctl.request(q)
        hdone.update({s["stroke"]: s["points"] for s in hist["strokes"]})
        cur = hist.get("cursor")
        if not cur: break
    for c, st, log in [(ref, refstate, rlog)] + joiners:
        c.send({"id": 99, "request": "unsubscribe"})
    tref.join(30)
    for th in threads: th.join(30)
    problems = []
    # reference must equal replay exactly
    if refstate.errors: problems.append("ref errors %s" % refstate.errors[:3])
    if sorted(refstate.done) != sorted(rst.done):
        problems.append("ref stroke ids %s vs replay %s" % (sorted(refstate.done)[:5], sorted(rst.done)[:5]))
    for sid, pts in rst.done.items():
        if refstate.done.get(sid) != pts:
            problems.append("ref stroke %s points differ from replay" % sid); break
        if hdone.get(sid) != pts:
            problems.append("history stroke %s points differ from replay (%s vs %s pts)" % (sid, len(hdone.get(sid) or []), len(pts))); break
    # seq bookkeeping: reference saw every seq
    seqs = refstate.seqs
    if seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        problems.append("reference seq gaps")
    for i, (c, st, log) in enumerate(joiners):
        if st.errors: problems.append("joiner %d errors %s" % (i, st.errors[:3])); continue
        snap = [m for m in log if m.get("type") == "snapshot"][0]
        S = snap["seq"]
        # every stroke that ended after S must be known and whole
        # ref: stroke -> end seq, began seq
        for sid, pts in rst.done.items():
            known = sid in st.done
            # find in reference log the end seq
            endseq = refend.get(sid) if 'refend' in globals() else None
        nd = 0
        for sid, pts in st.done.items():
            if pts != rst.done.get(sid):
                lp = len(pts); lr = len(rst.done.get(sid, []))
                problems.append("joiner %d (snap seq %d) stroke %s: %d points, replay %d" % (i, S, sid, lp, lr)); break
        # strokes missing: ended after S in the ref stream but unknown to joiner
        for m in rlog:
            if m.get("type") == "ended" and m["seq"] > S and m["stroke"] not in st.done:
                problems.append("joiner %d (snap seq %d) missing stroke %s ended at %d" % (i, S, m["stroke"], m["seq"])); break
        if len(st.seqs) and st.seqs != list(range(S + 1, S + 1 + len(st.seqs))):
            problems.append("joiner %d seq gap" % i)
        if st.seqs and st.seqs[-1] != seqs[-1]:
            problems.append("joiner %d last seq %d != ref %d" % (i, st.seqs[-1], seqs[-1]))
    return problems, len(joiners)

try:
    problems, n = main()
except SystemExit: raise
verdict(bool(problems), "%d late joiners vs reference vs replay: %s" % (n, problems[:6] if problems else "snapshot+stream reconstruct every stroke exactly"))
