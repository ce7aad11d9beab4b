#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    rec = os.path.join(FIX, "03+11-two-devices.libinput.yml")
    d = start_daemon(rec, loop=True, speed=1.0)
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe"})
    reflog = []; stopref = threading.Event()
    def rd(): read_into(ref, reflog, stopref)
    th = threading.Thread(target=rd); th.start()
    c = Conn(d.sock)
    plans = [{"devices": [1]}, {"devices": [2]}, {"devices": [2, 1], "events": ["began", "ended"]}, {}, {"devices": [1]}, {}]
    segs = []
    for i, extra in enumerate(plans * 2):
        q = dict({"id": 100 + i, "request": "subscribe"}, **extra)
        pre = []
        rep = c.request(q, collect=pre)
        seg = {"q": q, "rep": rep, "msgs": []}
        t1 = time.time() + 0.37 + 0.11 * i
        while time.time() < t1:
            try: seg["msgs"].append(c.read(timeout=max(0.01, t1 - time.time())))
            except socket.timeout: break
        segs.append(seg)
        if segs[-2:-1]:
            segs[-2]["msgs"] += pre
    # final: unsubscribe and read to its reply
    tail = []
    c.request({"id": 999, "request": "unsubscribe"}, collect=tail)
    segs[-1]["msgs"] += tail
    time.sleep(0.3); stopref.set(); th.join()
    refseq = {m["seq"]: m for m in reflog if "seq" in m and m["type"] != "reply" and m["type"] != "snapshot"}
    for i, seg in enumerate(segs):
        q, ms = seg["q"], seg["msgs"]
        if not ms or ms[0].get("type") != "snapshot":
            problems.append("subscribe %d: first message after reply is %s" % (i, ms[0].get("type") if ms else None)); continue
        S = ms[0]["seq"]
        if S != seg["rep"]["seq"]: problems.append("subscribe %d: snapshot seq %d != reply seq %d" % (i, S, seg["rep"]["seq"]))
        devs = q.get("devices"); evs = q.get("events")
        snapdev = [s["device"] for s in ms[0]["strokes"]]
        if devs is not None and any(x not in devs for x in snapdev): problems.append("subscribe %d: snapshot has devices %s outside %s" % (i, snapdev, devs))
        known = {s["stroke"] for s in ms[0]["strokes"]}
        exp = [m for sq, m in sorted(refseq.items()) if sq > S and (devs is None or m.get("device") in devs) and (evs is None or m["type"] in evs)]
        got = [m for m in ms[1:] if "seq" in m]
        # the live stream after S must be exactly the reference's, filtered, up to the next subscribe
        if got != exp[:len(got)]:
            j = next((k for k, (a, b) in enumerate(zip(got, exp)) if a != b), len(exp))
            problems.append("subscribe %d %s: stream differs from filtered reference at %d: got %s expected %s" % (i, q, j, (got[j]["type"], got[j]["seq"], got[j].get("stroke")) if j < len(got) else None, (exp[j]["type"], exp[j]["seq"]) if j < len(exp) else None))
        for m in got:
            if m["type"] in ("moved", "ended", "cancelled") and m["stroke"] not in known and (evs is None or "began" in evs):
                problems.append("subscribe %d: %s for stroke %s neither in snapshot nor begun after it" % (i, m["type"], m["stroke"])); break
            if m["type"] == "began": known.add(m["stroke"])
    print("seg sizes", [len(s["msgs"]) for s in segs], [len(s["msgs"][0]["strokes"]) for s in segs if s["msgs"]])
    return problems, len(segs)
problems, n = main()
verdict(bool(problems), "%d re-subscribes with changing filters on one connection: %s" % (n, problems[:5] if problems else "each snapshot + stream exact"))
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    cfg = "requests:\n  burstBytes: 65536\n  bytesPerSecond: 262144\nqueue:\n  mergeAfter: 1000000\n  disconnectAfter: 2000000\n  disconnectAfterBytes: 1073741824\n  totalBytes: 4294967296\n"
    d = start_daemon(rec, loop=True, speed=2.0, config=cfg)
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    reflog = []; stop = threading.Event()
    def rd(c, log): read_into(c, log, stop)
    th = threading.Thread(target=rd, args=(ref, reflog)); th.start()
    ctl = Conn(d.sock); dl = time.time() + 25
    while time.time() < dl and ctl.request({"id": 1, "request": "stats"})["daemon"]["liveStrokes"] < 5: time.sleep(0.01)
    c = Conn(d.sock)
    reqs = []
    for i in range(40):
        q = {"id": i, "request": "subscribe"}
        if i % 3 == 1: q["devices"] = [1]
        if i % 5 == 2: q["request"] = "live"
        reqs.append(q)
    c.s.sendall(b"".join((json.dumps(q) + "\n").encode() for q in reqs))
    log = []
    t0 = time.time()
    while time.time() - t0 < 25:
        m = c.read(timeout=20); log.append(m)
        if m.get("type") in ("reply", "error") and m.get("id") == 39: break
    # read a bit more stream after the last subscribe
    t1 = time.time() + 1
    while time.time() < t1:
        try: log.append(c.read(timeout=0.3))
        except socket.timeout: pass
    time.sleep(0.5); stop.set(); th.join()
    # split the log at subscribe replies
    segs = []; cur = None; lives = []
    for m in log:
        if m.get("type") == "reply" and m.get("request") == "subscribe":
            cur = []; segs.append(cur); continue
        if m.get("type") == "reply" and m.get("request") == "live":
            lives.append(m); continue
        if cur is not None: cur.append(m)
    ids = [m["id"] for m in log if m.get("type") in ("reply", "error")]
    if ids != list(range(40)): problems.append("replies out of order or missing: %s" % ids)
    wanted = [s[0]["seq"] for s in segs if s and s[0].get("type") == "snapshot"] + [l["seq"] for l in lives]
    rs = ref_states_at(reflog, wanted)
    for i, s in enumerate(segs):
        problems += compare_joiner("subscribe #%d" % i, s, reflog, rs)
    for i, l in enumerate(lives):
        problems += compare_joiner("live #%d" % i, [dict(l, type="snapshot")], reflog, rs)
    st = Conn(d.sock)
    paced = c.request({"id": 100, "request": "stats"})["you"]["paced"]
    print("snapshot strokes", [len(s[0]["strokes"]) for s in segs][:10], "bytes", sum(len(json.dumps(s[0])) for s in segs), "elapsed", time.time()-t0)
    return problems, len(segs), paced
problems, n, paced = main()
verdict(bool(problems), "40 pipelined subscribe/live requests, paced %d times: %s" % (paced, problems[:5] if problems else "each snapshot and live exact at its seq, stream exact"))
final_verdict()
