#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from join_round import *  # noqa: F401,F403
def main():
    rec = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
    d = start_daemon(rec, loop=True, speed=1.0, http=True)
    problems = []
    clients = []
    c = Conn(d.sock); c.request({"id": 1, "request": "subscribe"}); clients.append(("sock-early", c))
    w = WS(d.port); w.request({"id": 1, "request": "subscribe"}); clients.append(("ws", w))
    e = SSE(d.port); clients.append(("sse", e))
    ctl = Conn(d.sock)
    # wait for a moment with several strokes live
    dl = time.time() + 25
    while time.time() < dl:
        s = ctl.request({"id": 2, "request": "stats"})["daemon"]
        if s["liveStrokes"] >= 3: break
        time.sleep(0.01)
    late = Conn(d.sock); late.request({"id": 1, "request": "subscribe"}); clients.append(("sock-late", late))
    nosub = Conn(d.sock); clients.append(("sock-unsubscribed", nosub))
    d.send_signal(signal.SIGTERM)
    results = {}
    for name, cl in clients:
        st = State(); msgs = []
        try:
            while True:
                m = cl.read(timeout=10)
                if name == "sse": m = m[2]
                msgs.append(m); st.feed(m)
                if m.get("type") == "goodbye": break
        except Exception as ex:
            problems.append("%s: no goodbye (%r) after %d msgs" % (name, ex, len(msgs))); continue
        if msgs[-1].get("reason") != "shutdown": problems.append("%s: goodbye %r" % (name, msgs[-1]))
        if name == "sock-unsubscribed":
            if [m["type"] for m in msgs] != ["goodbye"]: problems.append("unsubscribed client got %s" % [m["type"] for m in msgs][:5])
            continue
        if st.errors: problems.append("%s: %s" % (name, st.errors[:3]))
        if st.live: problems.append("%s: strokes %s left live at goodbye (not cancelled shutdown)" % (name, sorted(st.live)))
        canc = [m for m in msgs if m.get("type") == "cancelled"]
        if not canc: problems.append("%s: no cancelled shutdown" % name)
        if any(m.get("reason") != "shutdown" for m in canc): problems.append("%s: cancel reasons %s" % (name, [m.get("reason") for m in canc]))
        results[name] = [(m["seq"], m["stroke"]) for m in canc]
        # after goodbye the connection closes
        try:
            extra = cl.read(timeout=3)
            problems.append("%s: message after goodbye %r" % (name, extra))
        except (EOFError, ConnectionResetError): pass
        except Exception as ex: problems.append("%s: not closed after goodbye: %r" % (name, ex))
    vals = list(results.values())
    if vals and any(v != vals[0] for v in vals): problems.append("clients disagree on shutdown cancels: %s" % results)
    try: d.wait(10)
    except Exception: problems.append("daemon did not exit")
    if d.returncode != 0: problems.append("exit code %s" % d.returncode)
    if os.path.exists(d.sock): problems.append("socket file left")
    return problems
problems = main()
verdict(bool(problems), "SIGTERM mid-stroke: %s" % (problems[:6] if problems else "every transport: cancelled shutdown for each live stroke, goodbye, close"))
