#!/usr/bin/env python3
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pen_round import *  # noqa: F401,F403

# protocol.md "Hover events": hover motion is merged for slow clients like moves ("a new hover
# motion replaces the queued motion of the same device and slot, with "merged": n"), proximity
# events never; "Sequence numbers": last seq - snapshot seq = messages received + sum merged.
# Recording 18 (1016 hover events) at speed 1000 to a client that does not read for 2.5 s, with
# queue.mergeAfter 4: proximityIn/Out keep alternating, every began is inside proximity, every
# stroke ends once, and the numbering adds up.
import glob, re, socket, time, collections
REC = FIX
rec = glob.glob(os.path.join(REC, "18-*"))[0]
td = tempfile.mkdtemp(prefix="strokes-adv-"); sock = os.path.join(td, "s.sock"); cfg = os.path.join(td, "c.yaml")
open(cfg, "w").write("socket:\n  path: %s\nqueue:\n  mergeAfter: 4\n" % sock)
out = []; first = True
for l in open(rec):
    m = re.match(r"E: (\d+)\.(\d+) ", l)
    if m and first:
        out.append("E: %d.%s 0000 0000 0000\n" % (int(m.group(1)) - 1500, m.group(2))); first = False
    out.append(l)
p = os.path.join(td, "r.evemu"); open(p, "w").writelines(out)
d = subprocess.Popen([BIN, "daemon", "--config", cfg, "--replay", p, "--no-loop", "--speed", "1000"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(250):
        if os.path.exists(sock): break
        time.sleep(0.02)
    s = socket.socket(socket.AF_UNIX); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096); s.connect(sock)
    s.sendall(b'{"id":1,"request":"subscribe","events":["began","moved","ended","cancelled","hover"]}\n')
    time.sleep(2.5)
    buf = b""; s.settimeout(0.5)
    while True:
        try:
            x = s.recv(1 << 20)
            if not x: break
            buf += x
        except socket.timeout: break
finally:
    d.terminate(); d.wait(10)
msgs = [json.loads(l) for l in buf.split(b"\n") if l.strip()]
problems = []; near = False; st = collections.defaultdict(list)
for m in msgs:
    if m["type"] == "hover":
        if m["phase"] == "proximityIn":
            if near: problems.append("proximityIn while near")
            near = True
        elif m["phase"] == "proximityOut":
            if not near: problems.append("proximityOut while not near")
            near = False
        elif not near: problems.append("motion while not near")
    if m["type"] in ("began", "moved", "ended", "cancelled"):
        st[m["stroke"]].append(m["type"])
        if m["type"] == "began" and not near: problems.append("began outside proximity")
c = collections.Counter(m.get("phase") for m in msgs if m["type"] == "hover")
if c["proximityIn"] != 6 or c["proximityOut"] != 6: problems.append("proximity counts %s" % dict(c))
if len(st) != 7 or any(v[0] != "began" or v[-1] != "ended" or v.count("ended") != 1 for v in st.values()): problems.append("strokes %s" % dict(st))
hm = sum(m.get("merged", 0) for m in msgs if m["type"] == "hover")
if hm == 0: problems.append("no hover merging happened (test did not load the queue)")
if hm + c["motion"] != 1004: problems.append("hover motions + merged = %d, want 1004" % (hm + c["motion"]))
seqs = [m["seq"] for m in msgs if m["type"] in ("began", "moved", "ended", "cancelled")]
snap = [m for m in msgs if m["type"] == "snapshot"]
if not snap or max(seqs) - snap[0]["seq"] != len(seqs) + sum(m.get("merged", 0) for m in msgs if m["type"] == "moved"):
    problems.append("sequence accounting off")
verdict(not problems, "; ".join(problems[:5]) or "hover merged for a slow client keeps proximity pairing and numbering")
