#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    rst, _ = replay_strokes(rec)
    d = start_daemon(rec, loop=False, speed=4.0, config="queue:\n  mergeAfter: 40\n  disconnectAfter: 100000\n  disconnectAfterBytes: 268435456\n  disconnectAfterSeconds: 60\n")
    problems = []
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    reflog = []; stop = threading.Event()
    def rd(): read_into(ref, reflog, stop)
    th = threading.Thread(target=rd); th.start()
    slows = []
    for delay in (0.5, 1.5, 3.0):
        time.sleep(delay if not slows else 0.3)
        s = socket.socket(socket.AF_UNIX); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(10); s.connect(d.sock)
        c = Conn.__new__(Conn); c.s = s; c.buf = b""; c.hello = c.read()
        c.send({"id": 1, "request": "subscribe"})
        slows.append((c, delay))
    ctl = Conn(d.sock)
    dl = time.time() + 30
    while time.time() < dl:
        st = ctl.request({"id": 9, "request": "stats"})["daemon"]
        if st["liveStrokes"] == 0 and st["completedStrokes"] == len(rst.done): break
        time.sleep(0.3)
    L = st["seq"]
    time.sleep(0.3); stop.set(); th.join()
    refby = {m["seq"]: m for m in reflog if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded")}
    totalmerged = 0
    for i, (c, delay) in enumerate(slows):
        log = []
        c.request({"id": 2, "request": "unsubscribe"}, collect=log)
        sn = [m for m in log if m.get("type") == "snapshot"][0]; S = sn["seq"]
        stream = [m for m in log if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved")]
        msum = sum(m.get("merged", 0) for m in stream); totalmerged += msum
        if L - S != len(stream) + msum:
            problems.append("slow %d: last seq %d - snapshot %d = %d != %d received + %d merged" % (i, L, S, L - S, len(stream), msum))
        lastseen = {}
        for m in stream:
            mm = dict(m); n = mm.pop("merged", 0)
            if refby.get(m["seq"]) != mm:
                problems.append("slow %d: seq %d differs from reference: %s" % (i, m["seq"], json.dumps(m)[:200])); break
            if m["type"] == "moved" and n:
                prev = lastseen.get(m["stroke"], S)
                between = [q for q in range(prev + 1, m["seq"]) if refby.get(q, {}).get("type") == "moved" and refby[q]["stroke"] == m["stroke"]]
                if len(between) != n:
                    problems.append("slow %d: moved seq %d merged %d but %d moves of stroke %d since its previous message" % (i, m["seq"], n, len(between), m["stroke"])); break
            lastseen[m.get("stroke")] = m["seq"]
        stt = State(); stt.feed(sn)
        for m in stream: stt.feed(m)
        if stt.errors: problems.append("slow %d lifecycle: %s" % (i, stt.errors[:3]))
        if stt.live: problems.append("slow %d: strokes left live %s" % (i, sorted(stt.live)))
    if totalmerged == 0: problems.append("no merging happened (test did not exercise merge)")
    return problems, totalmerged
problems, tm = main()
verdict(bool(problems) and not (len(problems) == 1 and problems[0].startswith("no merging")), "slow clients with merged moves (%d merged): %s" % (tm, problems[:6] if problems else "seq accounting and merged counts exact"))
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    d = start_daemon(rec, loop=True, speed=3.0, config="queue:\n  mergeAfter: 30\n  disconnectAfter: 100000\n  disconnectAfterBytes: 268435456\n  disconnectAfterSeconds: 60\n")
    problems = []; rounds = 0; tm = 0
    ctl = Conn(d.sock)
    dl = time.time() + 25
    while time.time() < dl and ctl.request({"id": 1, "request": "stats"})["daemon"]["liveStrokes"] < 4: time.sleep(0.02)
    for k in range(8):
        s = socket.socket(socket.AF_UNIX); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        s.settimeout(10); s.connect(d.sock)
        c = Conn.__new__(Conn); c.s = s; c.buf = b""; c.hello = c.read()
        for cyc in range(3):
            log = []
            rep = c.request({"id": 10 + cyc, "request": "subscribe"}, collect=log)
            time.sleep(0.3 + 0.2 * k)      # let a queue build up, with merges
            c.send({"id": 50 + cyc, "request": "unsubscribe"})
            while True:
                m = c.read(timeout=20); log.append(m)
                if m.get("type") in ("reply", "error") and m.get("id") == 50 + cyc: break
            U = m.get("seq")
            sn = [x for x in log if x.get("type") == "snapshot"]
            S = sn[0]["seq"]
            stream = [x for x in log if x.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved")]
            msum = sum(x.get("merged", 0) for x in stream); tm += msum
            rounds += 1
            if m.get("type") != "reply": problems.append("unsubscribe: %r" % m); continue
            above = [x["seq"] for x in stream if x["seq"] > U]
            if above: problems.append("k%d c%d: stream messages %s numbered above the unsubscribe reply's seq %d came before it" % (k, cyc, above[:3], U))
            if U - S != len(stream) + msum:
                problems.append("k%d c%d: unsubscribe seq %d - snapshot %d = %d, but %d received + %d merged = %d" % (k, cyc, U, S, U - S, len(stream), msum, len(stream) + msum))
            # nothing more of the stream after the reply
            try:
                after = []
                extra = c.request({"id": 70 + cyc, "request": "ping"}, collect=after)
                if after: problems.append("k%d c%d: %d stream messages after the unsubscribe reply" % (k, cyc, len(after)))
            except Exception as e: problems.append("ping after unsubscribe: %r" % e)
        c.close()
    return problems, rounds, tm
problems, n, tm = main()
verdict(bool(problems), "%d subscribe/unsubscribe cycles of a slow client mid-stream (%d moves merged): %s" % (n, tm, problems[:5] if problems else "U - S = received + merged at every unsubscribe"))
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    d = start_daemon(rec, loop=True, speed=3.0, config="queue:\n  mergeAfter: 30\n  disconnectAfter: 100000\n  disconnectAfterBytes: 268435456\n  disconnectAfterSeconds: 60\n")
    problems = []; rounds = 0; tm = 0
    ref = Conn(d.sock); ref.request({"id": 1, "request": "subscribe"})
    reflog = []; stop = threading.Event()
    def rd(): read_into(ref, reflog, stop)
    th = threading.Thread(target=rd); th.start()
    ctl = Conn(d.sock)
    dl = time.time() + 25
    while time.time() < dl and ctl.request({"id": 1, "request": "stats"})["daemon"]["liveStrokes"] < 4: time.sleep(0.02)
    results = []
    for k in range(6):
        s = socket.socket(socket.AF_UNIX); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        s.settimeout(10); s.connect(d.sock)
        c = Conn.__new__(Conn); c.s = s; c.buf = b""; c.hello = c.read()
        c.send({"id": 1, "request": "subscribe"})
        time.sleep(0.4 + 0.1 * k)
        c.send({"id": 2, "request": "subscribe", "devices": [1]} if k % 2 else {"id": 2, "request": "subscribe"})
        time.sleep(0.4 + 0.1 * k)
        c.send({"id": 3, "request": "unsubscribe"})
        log = []
        while True:
            m = c.read(timeout=20); log.append(m)
            if m.get("type") in ("reply", "error") and m.get("id") == 3: break
        results.append(log); c.close()
    time.sleep(0.5); stop.set(); th.join()
    refby = {m["seq"]: m for m in reflog if m.get("type") in ("began", "moved", "ended", "cancelled")}
    for k, log in enumerate(results):
        i2 = next(i for i, m in enumerate(log) if m.get("type") == "reply" and m.get("id") == 2)
        seg = log[i2 + 1:]
        S = seg[0]["seq"]; U = seg[-1]["seq"]
        stream = [m for m in seg if m.get("type") in ("began", "moved", "ended", "cancelled")]
        msum = sum(m.get("merged", 0) for m in stream); tm += msum
        if U - S != len(stream) + msum:
            problems.append("client %d: after the second subscribe (snapshot %d) to unsubscribe %d: %d numbers, but %d received + %d merged" % (k, S, U, U - S, len(stream), msum))
        lastseen = {}
        for m in stream:
            if m["seq"] <= S: problems.append("client %d: seq %d after snapshot %d" % (k, m["seq"], S)); break
            n = m.get("merged", 0)
            if n:
                prev = lastseen.get(m["stroke"], S)
                between = [q for q in range(prev + 1, m["seq"]) if refby.get(q, {}).get("type") == "moved" and refby[q]["stroke"] == m["stroke"]]
                if len(between) != n:
                    problems.append("client %d: moved seq %d (stroke %d) after snapshot %d says merged %d, but only %d moves of it since %s" % (k, m["seq"], m["stroke"], S, n, len(between), "the snapshot" if prev == S else "seq %d" % prev)); break
            lastseen[m["stroke"]] = m["seq"]
    return problems, tm
problems, tm = main()
verdict(bool(problems), "re-subscribe while merged moves are queued (%d merged): %s" % (tm, problems[:5] if problems else "merged counts after the new snapshot stand only for moves after it"))
final_verdict()
