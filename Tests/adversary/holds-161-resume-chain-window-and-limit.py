#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    R = 100
    d = start_daemon(rec, loop=False, speed=3.0, config="resume: %d\n" % R)
    problems = []
    ref = Conn(d.sock); rr = ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    if rr.get("resumed") is not True: problems.append("reference resumeAfter 0 not resumed: %r" % rr)
    refst = State(); reflog = []
    def rd():
        try:
            while True:
                m = ref.read(timeout=30); reflog.append(m)
                if m.get("type") == "reply": return
                refst.feed(m)
        except Exception as e: refst.errors.append(repr(e))
    th = threading.Thread(target=rd); th.start()
    # chain of clients each reading a few messages then dropping, the next resuming after the last seen seq
    chain = State(); chainlog = []
    c = Conn(d.sock); rep = c.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    nconn = 1; k = 0
    ctl = Conn(d.sock)
    t0 = time.time()
    while time.time() - t0 < 30:
        try:
            m = c.read(timeout=0.5)
        except socket.timeout:
            s = ctl.request({"id": 5, "request": "stats"})["daemon"]
            if s["liveStrokes"] == 0 and s["completedStrokes"] == len(rst.done) and chain.lastseq == s["seq"]: break
            continue
        if m.get("type") == "snapshot":
            problems.append("chain got a snapshot at conn %d (resume failed): %r" % (nconn, rep)); break
        chainlog.append(m); chain.feed(m); k += 1
        if k % 37 == 0:
            c.close(); c = Conn(d.sock); nconn += 1
            rep = c.request({"id": 1, "request": "subscribe", "resumeAfter": chain.lastseq})
            if rep.get("resumed") is not True:
                problems.append("resume at %s not resumed: %r" % (chain.lastseq, rep)); break
    L = ctl.request({"id": 6, "request": "stats"})["daemon"]["seq"]
    ref.send({"id": 2, "request": "unsubscribe"}); th.join(30)
    if chain.errors: problems.append("chain errors %s" % chain.errors[:3])
    rs = [m for m in reflog if "seq" in m and m.get("type") != "reply"]
    cs = [m for m in chainlog if "seq" in m]
    if rs != cs: problems.append("chain of %d resumed connections: %d msgs vs reference %d (first diff at %s)" % (nconn, len(cs), len(rs), next((i for i,(a,b) in enumerate(zip(rs,cs)) if a!=b), None)))
    if chain.done != rst.done: problems.append("chain strokes differ from replay")
    if refst.done != rst.done: problems.append("reference strokes differ from replay")
    # boundaries once the stream is still
    def sub(ra):
        c = Conn(d.sock); msgs = []
        r = c.request({"id": 1, "request": "subscribe", "resumeAfter": ra})
        r2 = c.request({"id": 2, "request": "ping"}, collect=msgs)
        c.close(); return r, msgs
    r, msgs = sub(L)
    if r.get("resumed") is not True or msgs: problems.append("resumeAfter latest %d: %r %d msgs" % (L, r, len(msgs)))
    r, msgs = sub(L - R)
    if r.get("resumed") is not True or [m["seq"] for m in msgs] != list(range(L - R + 1, L + 1)):
        problems.append("resumeAfter L-resume: %r, %d msgs" % (r, len(msgs)))
    elif msgs != rs[-R:]: problems.append("resumed messages differ from originals")
    r, msgs = sub(L - R - 1)
    if r.get("resumed") is not False or r.get("reason") != "gapTooOld" or [m["type"] for m in msgs] != ["snapshot"] or msgs[0]["seq"] != L:
        problems.append("resumeAfter L-resume-1: %r %s" % (r, [m["type"] for m in msgs]))
    r, msgs = sub(L + 1)
    if r.get("resumed") is not False or [m["type"] for m in msgs] != ["snapshot"]:
        problems.append("resumeAfter future: %r %s" % (r, [m["type"] for m in msgs]))
    r, msgs = sub(0)
    if r.get("resumed") is not False: problems.append("resumeAfter 0 after %d: %r" % (L, r))
    for bad in [-1, "12", 1.5, 2**64, True, [1], {"a": 1}]:
        c = Conn(d.sock); r = c.request({"id": 1, "request": "subscribe", "resumeAfter": bad}); c.close()
        if r.get("type") != "error" or r.get("error") != "badArgument": problems.append("resumeAfter %r: %r" % (bad, r))
    return problems, nconn
problems, n = main()
verdict(bool(problems), "resume chain over %d connections + window bounds: %s" % (n, problems[:6] if problems else "exact"))
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    d = start_daemon(rec, loop=False, speed=0, config="resume: 3000\nqueue:\n  disconnectAfter: 100\n  mergeAfter: 50\n")
    problems = []
    ctl = Conn(d.sock); dl = time.time() + 20
    while time.time() < dl:
        s = ctl.request({"id": 1, "request": "stats"})["daemon"]
        if s["liveStrokes"] == 0 and s["completedStrokes"] == 66: break
        time.sleep(0.2)
    L = s["seq"]
    for k, fits in [(98, True), (99, True), (100, False), (101, False), (2000, False)]:
        c = Conn(d.sock); c.send({"id": 1, "request": "subscribe", "resumeAfter": L - k})
        ms = []
        try:
            while True:
                m = c.read(timeout=3); ms.append(m)
                if m["type"] == "goodbye" or (m.get("seq") == L and m["type"] != "reply"): break
        except Exception: pass
        c.close()
        types = [m["type"] for m in ms]
        if fits:
            if types[:1] != ["reply"] or len(ms) != k + 1 or any(m.get("merged") for m in ms):
                problems.append("%d resumed messages (disconnectAfter 100): got %s ... %d messages" % (k, types[:2], len(ms)))
        else:
            if types != ["goodbye"] or ms[0].get("reason") != "slowClient":
                problems.append("%d resumed messages (disconnectAfter 100): expected goodbye slowClient alone, got %s" % (k, types[:3]))
    return problems
problems = main()
verdict(bool(problems), "resume at the queue limit: %s" % (problems[:4] if problems else "disconnectAfter-1 resumed messages fit, one more gets goodbye slowClient alone"))
final_verdict()
