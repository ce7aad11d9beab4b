#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    d = start_daemon(rec, loop=False, speed=2.0, config="maxClientsPerUid: 200\nmaxClients: 300\nhttp:\n  maxConnections: 200\n", http=True)
    problems = []
    ctl = Conn(d.sock)
    joiners = []
    def sse_reader(c, st, log):
        try:
            dl = time.time() + 50
            while time.time() < dl:
                if st.lastseq is not None and st.lastseq >= st.target: return
                try: ev, eid, m = c.read(timeout=0.5)
                except socket.timeout: continue
                log.append((ev, eid, m))
                if m.get("type") in ("snapshot", "began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved"):
                    if eid != str(m["seq"]): st.errors.append("sse id %s for seq %s" % (eid, m["seq"]))
                if m.get("type") in ("began", "moved", "ended", "cancelled") and ev is not None: st.errors.append("event: %s on stroke msg" % ev)
                if m.get("type") == "snapshot" and ev != "snapshot": st.errors.append("snapshot event %s" % ev)
                st.feed(m)
                if st.lastseq is not None and st.lastseq >= st.target: return
        except Exception as e:
            st.errors.append("sse exc %r" % e)
    def ws_reader(c, st, log):
        try:
            r = c.request({"id": 1, "request": "subscribe"}, collect=log)
            dl = time.time() + 50
            while time.time() < dl:
                if st.lastseq is not None and st.lastseq >= st.target: return
                try: m = c.read(timeout=0.5)
                except socket.timeout: continue
                log.append(m); st.feed(m)
                if st.lastseq is not None and st.lastseq >= st.target: return
        except Exception as e:
            st.errors.append("ws exc %r" % e)
    threads = []
    t0 = time.time(); i = 0
    while time.time() - t0 < 12.5:
        st = State(); st.target = 10**18; log = []
        if i % 2 == 0:
            c = SSE(d.port); th = threading.Thread(target=sse_reader, args=(c, st, log)); kind = "sse"
        else:
            c = WS(d.port); th = threading.Thread(target=ws_reader, args=(c, st, log)); kind = "ws"
        th.start(); threads.append(th); joiners.append((kind, c, st, log)); i += 1
        time.sleep(0.25)
    dl = time.time() + 20
    while time.time() < dl:
        s = ctl.request({"id": 9, "request": "stats"})["daemon"]
        if s["liveStrokes"] == 0 and s["completedStrokes"] == len(rst.done): break
        time.sleep(0.2)
    L = s["seq"]
    for kind, c, st, log in joiners: st.target = L
    for th in threads: th.join(35)
    for k, (kind, c, st, log) in enumerate(joiners):
        if st.errors: problems.append("%s joiner %d: %s" % (kind, k, st.errors[:2])); continue
        if st.lastseq != L: problems.append("%s joiner %d ended at seq %s not %d" % (kind, k, st.lastseq, L)); continue
        for sid, pts in st.done.items():
            if pts != rst.done.get(sid):
                problems.append("%s joiner %d: stroke %s has %d points, replay %d" % (kind, k, sid, len(pts), len(rst.done.get(sid, [])))); break
        S = [ (x[2] if kind == "sse" else x) for x in log if (x[2] if kind == "sse" else x).get("type") == "snapshot"][0]["seq"]
        nS = len(st.seqs)
        if st.seqs != list(range(S + 1, L + 1)): problems.append("%s joiner %d: seqs not S+1..L" % (kind, k))
    return problems, len(joiners)
problems, n = main()
verdict(bool(problems), "%d SSE/WebSocket late joiners: %s" % (n, problems[:6] if problems else "snapshot + stream reconstruct every stroke exactly"))
