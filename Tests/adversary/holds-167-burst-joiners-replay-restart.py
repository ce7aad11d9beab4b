#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
COMBO = []
def main():
    cut = os.path.join(TMP, "cut.evemu")
    lines = open(os.path.join(FIX, "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")).read().split("\n")
    open(cut, "w").write("\n".join(lines[:233]) + "\n")   # ends with four fingers down
    big = "maxClientsPerUid: 250\nmaxClients: 300\nqueue:\n  mergeAfter: 1000000\n  disconnectAfter: 2000000\n  disconnectAfterBytes: 1073741824\n  totalBytes: 4294967296\n"
    d = start_daemon(cut, loop=True, speed=4.0, config=big)
    problems = []
    ref = Conn(d.sock); r = ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    if r.get("resumed") is not True: problems.append("reference not resumed from 0")
    reflog = []; stop = threading.Event()
    def rd(c, log): read_into(c, log, stop)
    ths = [threading.Thread(target=rd, args=(ref, reflog))]; ths[0].start()
    joiners = []
    t0 = time.time(); k = 0
    while time.time() - t0 < 8:
        # bursts of clients joining at once, at varying moments
        batch = []
        for i in range(6):
            c = Conn(d.sock); c.send({"id": 1, "request": "subscribe"}); batch.append(c)
        for c in batch:
            log = []; joiners.append((c, log))
            th = threading.Thread(target=rd, args=(c, log)); th.start(); ths.append(th)
        k += 1
        time.sleep(0.013 * (k % 11))
        if len(joiners) >= 200: break
    time.sleep(1.0)
    stop.set()
    for th in ths: th.join(10)
    wanted = []
    for c, log in joiners:
        sn = [m for m in log if m.get("type") == "snapshot"]
        if sn: wanted.append(sn[0]["seq"])
    rs = ref_states_at(reflog, wanted)
    for i, (c, log) in enumerate(joiners):
        if any(m.get("type") == "exc" for m in log): problems.append("joiner %d: %s" % (i, [m for m in log if m.get("type") == "exc"])); continue
        problems += compare_joiner("joiner %d" % i, log, reflog, rs)
    ncanc = sum(1 for m in reflog if m.get("type") == "cancelled")
    return problems, len(joiners), ncanc
problems, n, nc = main()
verdict(bool(problems), "%d clients joining in bursts of 6 across %d replayRestarted cancels: %s" % (n, nc, problems[:6] if problems else "every snapshot = reference state at its seq, stream exact"))
def main():
    cut = os.path.join(TMP, "cut.evemu")
    lines = open(os.path.join(FIX, "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")).read().split("\n")
    open(cut, "w").write("\n".join(lines[:233]) + "\n")   # ends with four fingers down
    big = "resume: 1000000\nmaxClientsPerUid: 250\nmaxClients: 300\nqueue:\n  mergeAfter: 1000000\n  disconnectAfter: 2000000\n  disconnectAfterBytes: 1073741824\n  totalBytes: 4294967296\n"
    d = start_daemon(os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu"), loop=False, speed=10, config=big)
    problems = []
    ref = Conn(d.sock); r = ref.request({"id": 1, "request": "subscribe", "resumeAfter": 0})
    if r.get("resumed") is not True: problems.append("reference not resumed from 0")
    reflog = []; stop = threading.Event()
    def rd(c, log): read_into(c, log, stop)
    ths = [threading.Thread(target=rd, args=(ref, reflog))]; ths[0].start()
    joiners = []
    t0 = time.time(); k = 0
    while time.time() - t0 < 2.6:
        # bursts of clients joining at once, at varying moments
        batch = []
        for i in range(6):
            c = Conn(d.sock); c.send({"id": 1, "request": "subscribe"}); batch.append(c)
        for c in batch:
            log = []; joiners.append((c, log))
            th = threading.Thread(target=rd, args=(c, log)); th.start(); ths.append(th)
        k += 1
        time.sleep(0.005 * (k % 7))
        if len(joiners) >= 120: break
    time.sleep(1.0)
    def lastseq(log):
        q = [m["seq"] for m in log[-50:] if m.get("type") in ("began", "moved", "ended", "cancelled")]
        return q[-1] if q else 0
    target = max(lastseq(l) for c, l in joiners)
    dl = time.time() + 40
    while time.time() < dl and lastseq(reflog) < target: time.sleep(0.1)
    stop.set()
    for th in ths: th.join(10)
    wanted = []
    for c, log in joiners:
        sn = [m for m in log if m.get("type") == "snapshot"]
        if sn: wanted.append(sn[0]["seq"])
    rs = ref_states_at(reflog, wanted)
    for i, (c, log) in enumerate(joiners):
        if any(m.get("type") == "exc" for m in log): problems.append("joiner %d: %s" % (i, [m for m in log if m.get("type") == "exc"])); continue
        problems += compare_joiner("joiner %d" % i, log, reflog, rs)
    ncanc = sum(1 for m in reflog if m.get("type") == "cancelled")
    return problems, len(joiners), ncanc
problems, n, nc = main()
verdict(bool(problems), "%d clients joining in bursts of 6 across %d replayRestarted cancels: %s" % (n, nc, problems[:6] if problems else "every snapshot = reference state at its seq, stream exact"))
final_verdict()
