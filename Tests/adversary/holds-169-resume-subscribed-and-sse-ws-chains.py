#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    big = "resume: 100000\nmaxClientsPerUid: 250\nmaxClients: 300\nqueue:\n  mergeAfter: 1000000\n  disconnectAfter: 2000000\n  disconnectAfterBytes: 1073741824\n  totalBytes: 4294967296\n"
    d = start_daemon(rec, loop=True, speed=6.0, config=big)
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    reflog = []; stop = threading.Event()
    def rd(): read_into(ref, reflog, stop)
    th = threading.Thread(target=rd); th.start()
    results = []
    def worker(k):
        try:
            c = Conn(d.sock); log = []
            c.request({"id": 1, "request": "subscribe"}, collect=log)
            for rnd in range(6):
                # read a little (not everything queued), then resubscribe resuming some way back
                for i in range(7 + 13 * rnd + k % 5):
                    log.append(c.read(timeout=10))
                seqd = [m["seq"] for m in log if m.get("type") in ("began", "moved", "ended", "cancelled")]
                back = seqd[-1] - (k * 7 + rnd * 31) % 200 if seqd else 0
                seg = []
                rep = c.request({"id": 10 + rnd, "request": "subscribe", "resumeAfter": max(back, 1)}, collect=seg)
                after = [c.read(timeout=10) for i in range(40)]
                results.append((k, rnd, max(back, 1), rep, after))
                log = []
            c.close()
        except Exception as e:
            results.append((k, -1, 0, {"exc": repr(e)}, []))
    ws = [threading.Thread(target=worker, args=(k,)) for k in range(30)]
    time.sleep(1)
    for w in ws: w.start()
    for w in ws: w.join(40)
    time.sleep(0.5); stop.set(); th.join()
    refby = {m["seq"]: m for m in reflog if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded")}
    for k, rnd, S, rep, after in results:
        if rnd < 0: problems.append("worker %d: %s" % (k, rep)); continue
        if rep.get("resumed") is not True: problems.append("worker %d round %d: resume after %d: %r" % (k, rnd, S, rep)); continue
        want = [refby.get(q) for q in range(S + 1, S + 41)]
        if after != want:
            j = next(i for i, (a, b) in enumerate(zip(after, want)) if a != b)
            problems.append("worker %d round %d: resumeAfter %d on a subscribed connection: message %d after the reply is %s, expected %s" % (k, rnd, S, j, json.dumps(after[j])[:120], json.dumps(want[j])[:120]))
    return problems, len(results)
problems, n = main()
verdict(bool(problems), "%d resumes on already-subscribed connections under load: %s" % (n, problems[:5] if problems else "each followed by exactly the held messages after S"))
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    d = start_daemon(rec, loop=False, speed=3.0, config="resume: 100000\n", http=True)
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    reflog = []; stop = threading.Event()
    def rd(): read_into(ref, reflog, stop)
    th = threading.Thread(target=rd); th.start()
    ctl = Conn(d.sock)
    chains = {}
    for kind in ("sse-header", "sse-query", "ws"):
        chains[kind] = []
    def run(kind):
        got = chains[kind]; last = None; nconn = 0; k = 0
        t0 = time.time()
        while time.time() - t0 < 25:
            nconn += 1
            if kind == "ws":
                c = WS(d.port)
                q = {"id": 1, "request": "subscribe"}
                if last is not None: q["resumeAfter"] = last
                rep = c.request(q)
                rd_ = lambda: c.read(timeout=0.5)
            else:
                if last is None: c = SSE(d.port)
                elif kind == "sse-header": c = SSE(d.port, headers={"Last-Event-ID": str(last)})
                else: c = SSE(d.port, "?lastEventId=%d" % last)
                c.read(timeout=5)  # hello
                rep = c.read(timeout=5)[2]
                rd_ = lambda: c.read(timeout=0.5)[2]
            if last is not None and rep.get("resumed") is not True:
                got.append({"type": "problem", "rep": rep}); return
            n = 0
            while n < 29 + nconn % 17:
                try: m = rd_()
                except socket.timeout:
                    s = ctl.request({"id": 5, "request": "stats"})["daemon"] if False else None
                    if stop_chain.is_set(): c.close(); return
                    continue
                if m.get("type") == "snapshot" and last is not None:
                    got.append({"type": "problem", "snap": m["seq"]}); return
                if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded"):
                    got.append(m); last = m["seq"]; n += 1
            c.close()
    stop_chain = threading.Event()
    ths = [threading.Thread(target=run, args=(k,)) for k in chains]
    for t in ths: t.start()
    dl = time.time() + 30
    while time.time() < dl:
        s = ctl.request({"id": 9, "request": "stats"})["daemon"]
        if s["liveStrokes"] == 0 and s["completedStrokes"] == len(rst.done): break
        time.sleep(0.2)
    time.sleep(1.5); stop_chain.set()
    for t in ths: t.join(20)
    stop.set(); th.join()
    refs = [m for m in reflog if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded")]
    for kind, got in chains.items():
        pr = [m for m in got if m.get("type") == "problem"]
        if pr: problems.append("%s: %s" % (kind, pr[0])); continue
        if not got: problems.append("%s: nothing" % kind); continue
        S0 = got[0]["seq"] - 1
        want = [m for m in refs if m["seq"] > S0]
        if got != want:
            j = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            problems.append("%s: chain differs at %d (%d got, %d want): %s vs %s" % (kind, j, len(got), len(want), json.dumps(got[j])[:100] if j < len(got) else None, json.dumps(want[j])[:100] if j < len(want) else None))
    return problems
problems = main()
verdict(bool(problems), "chains of reconnecting SSE (Last-Event-ID header / lastEventId) and WebSocket (resumeAfter) clients: %s" % (problems[:4] if problems else "exact"))
final_verdict()
