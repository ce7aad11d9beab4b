#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    H = 10
    d = start_daemon(rec, loop=False, speed=4.0, config="history: %d\nhistoryPageBytes: 4096\n" % H)
    problems = []; checks = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    st = State(); ends = []
    ctl = Conn(d.sock)
    dl = time.time() + 30
    while time.time() < dl and len(st.done) < len(rst.done):
        m = ref.read(timeout=30); st.feed(m)
        if m["type"] == "ended": ends.append(m["stroke"])
        if m["type"] == "ended" and len(ends) % 7 == 3:
            # history at this moment must be the last H ended, in order, whole
            ctl2 = Conn(d.sock)
            got = []; cur = None
            for k in range(50):
                q = {"id": k, "request": "history"}
                if cur: q["cursor"] = cur
                r = ctl2.request(q)
                got += r["strokes"]; cur = r.get("cursor")
                if r.get("missed"): got += [None] * r["missed"]
                if not cur: break
            ctl2.close()
            # strokes completing while paging are not part; the selection is fixed by the first page
            ids = [s["stroke"] if s else None for s in got]
            checks.append((len(ends), ids))
            for s in got:
                if s and s["points"] != st.done.get(s["stroke"]):
                    problems.append("history stroke %s points differ from stream" % s["stroke"]); break
    for n0, ids in checks:
        if None in ids: continue
        if not any(ids == ends[max(0, j - H):j] for j in range(n0, len(ends) + 1)):
            problems.append("history after %d ends: %s; stream ended %s" % (n0, ids, ends[max(0, n0 - H):n0 + 3]))
    s = ctl.request({"id": 1, "request": "stats"})["daemon"]
    if s["completedStrokes"] != H: problems.append("stats completedStrokes %d != history %d" % (s["completedStrokes"], H))
    for lim, n in [(0, 0), (1, 1), (3, 3), (H, H), (H + 5, H), (1000000, H)]:
        got = []; cur = None
        for k in range(50):
            q = {"id": k, "request": "history", "limit": lim}
            if cur: q["cursor"] = cur
            r = ctl.request(q)
            if r["type"] != "reply": problems.append("limit %d: %r" % (lim, r)); break
            got += [x["stroke"] for x in r["strokes"]]; cur = r.get("cursor")
            if not cur: break
        if got != ends[len(ends) - n:]:
            problems.append("limit %d: %s expected %s" % (lim, got, ends[len(ends) - n:]))
    r = ctl.request({"id": 5, "request": "history", "limit": 1000001})
    if r.get("error") != "badArgument": problems.append("limit 1000001: %r" % r)
    return problems
problems = main()
verdict(bool(problems), "history bound/order/limit: %s" % (problems[:6] if problems else "last `history` ended strokes, in order, whole"))
def run_one(recname, speed, dur, extra=""):
    rec = os.path.join(FIX, recname)
    rst, _ = replay_strokes(rec)
    big = "maxClientsPerUid: 250\nmaxClients: 300\nqueue:\n  mergeAfter: 1000000\n  disconnectAfter: 2000000\n  disconnectAfterBytes: 1073741824\n  totalBytes: 4294967296\n"
    d = start_daemon(rec, loop=False, speed=speed, config=big.replace("disconnectAfterBytes: 1073741824", "disconnectAfterBytes: 65536") if extra else big, name=recname[:2])
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    reflog = []; stop = threading.Event()
    def rd(c, log): read_into(c, log, stop)
    ths = [threading.Thread(target=rd, args=(ref, reflog))]; ths[0].start()
    joiners = []; lives = []
    ctl = Conn(d.sock)
    t0 = time.time()
    while time.time() - t0 < dur:
        c = Conn(d.sock); log = []
        if extra:
            c.request({"id": 1, "request": "subscribe"}); log.append(c.read()); c.close(); joiners.append((c, log))
        else:
            c.send({"id": 1, "request": "subscribe"})
            joiners.append((c, log)); th = threading.Thread(target=rd, args=(c, log)); th.start(); ths.append(th)
        lives.append(ctl.request({"id": 2, "request": "live"}))
        time.sleep(0.12)
    dl = time.time() + (0 if extra else 20)
    while time.time() < dl:
        s = ctl.request({"id": 9, "request": "stats"})["daemon"]
        if s["liveStrokes"] == 0 and s["completedStrokes"] == len(rst.done): break
        time.sleep(0.2)
    time.sleep(0.5); stop.set()
    for th in ths: th.join(10)
    wanted = [l["seq"] for l in lives]
    for c, log in joiners:
        sn = [m for m in log if m.get("type") == "snapshot"]
        if sn: wanted.append(sn[0]["seq"])
    rs = ref_states_at(reflog, wanted)
    for i, (c, log) in enumerate(joiners):
        problems += compare_joiner("%s joiner %d" % (recname[:2], i), log, reflog, rs)
    for i, l in enumerate(lives):
        problems += compare_joiner("%s live reply %d" % (recname[:2], i), [dict(l, type="snapshot")], reflog, rs)
    if extra:
        cuts = sum(1 for c, l in joiners for s in l[0]["strokes"] if s.get("pointsOmitted")) + sum(1 for l in lives for s in l["strokes"] if s.get("pointsOmitted"))
        if cuts == 0: problems.append("no snapshot was cut (pointsOmitted): the test did not exercise it")
        print("cut strokes seen", cuts)
    st = State()
    for m in reflog: st.feed(m)
    if st.done != rst.done and not extra: problems.append("%s: reference strokes differ from strokes replay (%d vs %d)" % (recname[:2], len(st.done), len(rst.done)))
    d.kill()
    return problems, len(joiners)
problems = []; n = 0
for rec, sp, du, *extra in [("01-wacom-dth2242-touchscreen-10finger.evemu", 2.0, 7, "small"), ("17-wacom-cintiq12wx-pen-and-eraser.evemu", 2.0, 5), ("16-wacom-cintiq13hd-pen-hover-tilt.evemu", 1.0, 4), ("02-dell-canvas-cooltouch-touchscreen-5finger.evemu", 4.0, 5), ("09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu", 1.0, 3)]:
    p, k = run_one(rec, sp, du, *extra); problems += p; n += k
verdict(bool(problems), "%d late joiners + live replies on pen/semi-MT/touchpad recordings: %s" % (n, problems[:6] if problems else "exact"))
final_verdict()
