"""The join round's shared lines (the sixth session's round 23: what a late-joining or resuming
client sees): daemons on replays (`start_daemon`), socket, SSE and WebSocket clients, and the exact
comparison of a joiner against a reference client that saw everything. Each script does
`from join_round import *`."""
# ---- common harness (inlined into each script) ----
import os, sys, json, socket, subprocess, tempfile, time, threading, signal, base64, struct, shutil
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../.build/debug/strokes"))
FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../ReplayTests/Fixtures")
TMP = tempfile.mkdtemp(prefix="strokes-adv-")
PROCS = []
import atexit
atexit.register(lambda: [p.kill() for p in PROCS if p.poll() is None])

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def start_daemon(replay, loop=False, speed=1.0, config="", http=False, name="d"):
    os.makedirs(TMP, exist_ok=True)
    cfg = os.path.join(TMP, name + ".yaml")
    with open(cfg, "w") as f:
        f.write(config)
    sock = os.path.join(TMP, name + ".sock")
    args = [BIN, "daemon", "--config", cfg, "--socket", sock, "--replay", replay,
            "--loop" if loop else "--no-loop", "--speed", str(speed), "--log-level", "notice"]
    port = None
    if http:
        port = free_port(); args += ["--http", "127.0.0.1:%d" % port]
    log = open(os.path.join(TMP, name + ".log"), "wb")
    p = subprocess.Popen(args, stdout=log, stderr=log)
    PROCS.append(p)
    dl = time.time() + 10
    while time.time() < dl:
        if os.path.exists(sock):
            try:
                c = Conn(sock); c.close(); break
            except Exception:
                pass
        if p.poll() is not None:
            raise SystemExit("daemon exited: " + open(os.path.join(TMP, name + ".log")).read())
        time.sleep(0.02)
    p.sock = sock; p.port = port; p.cfg = cfg; p.logpath = os.path.join(TMP, name + ".log")
    return p

def cleanup():
    for p in PROCS:
        if p.poll() is None:
            p.kill()
            try: p.wait(5)
            except Exception: pass
    shutil.rmtree(TMP, ignore_errors=True)

class Conn:
    def __init__(self, path, timeout=10):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        self.s.connect(path)
        self.buf = b""
        self.hello = self.read()
    def send(self, obj):
        self.s.sendall((json.dumps(obj) if not isinstance(obj, (bytes, str)) else (obj if isinstance(obj, str) else obj.decode())).encode() + b"\n")
    def read(self, timeout=None):
        if timeout is not None: self.s.settimeout(timeout)
        while b"\n" not in self.buf:
            d = self.s.recv(65536)
            if not d:
                raise EOFError
            self.buf += d
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)
    def request(self, obj, collect=None):
        """send request, return its reply; stream messages before it appended to collect"""
        self.send(obj)
        while True:
            m = self.read()
            if m.get("type") in ("reply", "error") and m.get("id") == obj.get("id"):
                return m
            if collect is not None: collect.append(m)
    def close(self):
        try: self.s.close()
        except Exception: pass

def point_of(m):
    skip = {"type", "seq", "merged", "stroke", "device", "frame", "slot", "trackingId", "flags", "reason"}
    return {k: v for k, v in m.items() if k not in skip}

def differs_but_time(a, b):
    return {k: v for k, v in a.items() if k != "time"} != {k: v for k, v in b.items() if k != "time"}

class State:
    """reconstructs live + completed strokes from a stream"""
    def __init__(self):
        self.live = {}; self.done = {}; self.cancelled = {}; self.errors = []; self.lastseq = None
        self.seqs = []
    def feed(self, m):
        t = m.get("type")
        if t not in ("snapshot", "began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved"):
            return
        if t == "snapshot":
            self.live = {s["stroke"]: list(s["points"]) for s in m["strokes"]}
            self.lastseq = m["seq"]; return
        if "seq" in m:
            if self.lastseq is not None and m["seq"] <= self.lastseq:
                self.errors.append("seq not increasing %s after %s" % (m["seq"], self.lastseq))
            self.lastseq = m["seq"]; self.seqs.append(m["seq"])
        sid = m.get("stroke")
        if t == "began":
            if sid in self.live or sid in self.done or sid in self.cancelled:
                self.errors.append("began twice %s" % sid)
            self.live[sid] = [point_of(m)]
        elif t == "moved":
            if sid not in self.live: self.errors.append("moved unknown %s seq %s" % (sid, m["seq"])); return
            self.live[sid].append(point_of(m))
        elif t == "ended":
            if sid not in self.live: self.errors.append("ended unknown %s seq %s" % (sid, m["seq"])); return
            pts = self.live.pop(sid); p = point_of(m)
            if differs_but_time(pts[-1], p): pts.append(p)
            self.done[sid] = pts
        elif t == "cancelled":
            if sid not in self.live: self.errors.append("cancelled unknown %s" % sid); return
            self.cancelled[sid] = self.live.pop(sid)

def replay_strokes(path, extra=()):
    out = subprocess.run([BIN, "replay"] + list(extra) + [path], capture_output=True, check=True).stdout
    st = State(); ev = []
    for line in out.splitlines():
        m = json.loads(line); ev.append(m)
        if m["type"] in ("began", "moved", "ended", "cancelled"): st.feed(m)
    return st, ev

COMBO = None   # when a list, verdicts are collected and the script ends with final_verdict()
def final_verdict():
    bad = [m for b, m in COMBO if b]
    for b, m in COMBO: print(("BROKEN: " if b else "HELD: ") + m)
    cleanup()
    sys.exit(1 if bad else 0)
def verdict(broken, msg):
    if COMBO is not None:
        COMBO.append((broken, msg))
        for p in PROCS:
            if p.poll() is None: p.kill(); p.wait()
        del PROCS[:]
        return
    if broken:
        print("BROKEN:", msg); cleanup(); sys.exit(1)
    print("HELD:", msg); cleanup(); sys.exit(0)
# ---- end common ----
# ---- http helpers ----
class SSE:
    def __init__(self, port, query="", headers=None):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        h = "GET /events%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % (query, port)
        for k, v in (headers or {}).items(): h += "%s: %s\r\n" % (k, v)
        self.s.sendall((h + "\r\n").encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            d = self.s.recv(65536)
            if not d: raise EOFError
            self.buf += d
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        self.status = int(head.split()[1]); self.chunked = b"chunked" in head.lower()
        self.raw = b""
    def _more(self):
        d = self.s.recv(65536)
        if not d: raise EOFError
        self.buf += d
        if self.chunked:
            while True:
                if b"\r\n" not in self.buf: return
                ln, rest = self.buf.split(b"\r\n", 1)
                n = int(ln.split(b";")[0], 16)
                if len(rest) < n + 2: return
                self.raw += rest[:n]; self.buf = rest[n + 2:]
                if n == 0: return
        else:
            self.raw += self.buf; self.buf = b""
    def read(self, timeout=None):
        """returns (event, id, data-obj)"""
        if timeout is not None: self.s.settimeout(timeout)
        while b"\n\n" not in self.raw:
            self._more()
        blk, self.raw = self.raw.split(b"\n\n", 1)
        ev = None; eid = None; data = []
        for ln in blk.decode().split("\n"):
            if ln.startswith("event:"): ev = ln[6:].strip()
            elif ln.startswith("id:"): eid = ln[3:].strip()
            elif ln.startswith("data:"): data.append(ln[5:].lstrip(" "))
        return ev, eid, json.loads("\n".join(data)) if data else None
    def close(self): self.s.close()

class WS:
    def __init__(self, port):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n" % (port, key)).encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            d = self.s.recv(65536)
            if not d: raise EOFError
            self.buf += d
        head, self.buf = self.buf.split(b"\r\n\r\n", 1)
        assert b" 101 " in head.split(b"\r\n")[0], head
        self.hello = self.read()
    def _need(self, n):
        while len(self.buf) < n:
            d = self.s.recv(65536)
            if not d: raise EOFError
            self.buf += d
    def read(self, timeout=None):
        if timeout is not None: self.s.settimeout(timeout)
        msg = b""
        while True:
            self._need(2)
            b0, b1 = self.buf[0], self.buf[1]; n = b1 & 127; off = 2
            if n == 126: self._need(4); n = struct.unpack(">H", self.buf[2:4])[0]; off = 4
            elif n == 127: self._need(10); n = struct.unpack(">Q", self.buf[2:10])[0]; off = 10
            self._need(off + n)
            payload = self.buf[off:off + n]; self.buf = self.buf[off + n:]
            op = b0 & 15
            if op == 8: raise EOFError("close %r" % payload[:2])
            if op in (9, 10): continue
            msg += payload
            if b0 & 128: return json.loads(msg)
    def send(self, obj):
        p = json.dumps(obj).encode(); mask = os.urandom(4)
        hdr = bytes([0x81]) + (bytes([0x80 | len(p)]) if len(p) < 126 else bytes([0x80 | 126]) + struct.pack(">H", len(p)))
        self.s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(p)))
    def request(self, obj, collect=None):
        self.send(obj)
        while True:
            m = self.read()
            if m.get("type") in ("reply", "error") and m.get("id") == obj.get("id"): return m
            if collect is not None: collect.append(m)
    def close(self): self.s.close()
# ---- end http ----
# ---- exact comparison of joiners against a reference that saw everything ----
def ref_states_at(reflog, wanted):
    """for each seq in wanted, the reference's live strokes {id: (began msg, points)} right after that seq"""
    live = {}; out = {}; ws = sorted(set(wanted)); wi = 0
    msgs = [m for m in reflog if m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved")]
    def snap(): return {k: (v[0], list(v[1])) for k, v in live.items()}
    for m in msgs:
        while wi < len(ws) and ws[wi] < m["seq"]:
            out[ws[wi]] = snap(); wi += 1
        t = m["type"]; sid = m.get("stroke")
        if t == "began": live[sid] = (m, [point_of(m)])
        elif t == "moved" and sid in live: live[sid][1].append(point_of(m))
        elif t in ("ended", "cancelled"): live.pop(sid, None)
    while wi < len(ws): out[ws[wi]] = snap(); wi += 1
    return out

def compare_joiner(name, jlog, reflog, refstates):
    """jlog: messages after the subscribe reply. returns list of problems"""
    probs = []
    snaps = [m for m in jlog if m.get("type") == "snapshot"]
    if not snaps: return ["%s: no snapshot" % name]
    sn = snaps[0]; S = sn["seq"]
    exp = refstates[S]
    got = {s["stroke"]: s for s in sn["strokes"]}
    if sorted(got) != sorted(exp):
        probs.append("%s: snapshot at seq %d has strokes %s, reference live %s" % (name, S, sorted(got), sorted(exp)))
    for sid in set(got) & set(exp):
        b, pts = exp[sid]; o = got[sid]
        if o.get("pointsOmitted"):
            n = o["pointsOmitted"]
            if o["points"] != pts[n:]:
                probs.append("%s: snapshot seq %d stroke %s pointsOmitted %d but points are not the reference's points[%d:] (%d given, reference %d)" % (name, S, sid, n, n, len(o["points"]), len(pts)))
            continue
        if o["points"] != pts:
            probs.append("%s: snapshot seq %d stroke %s: %d points, reference %d" % (name, S, sid, len(o["points"]), len(pts))); break
        for k in ("device", "slot", "trackingId"):
            if o.get(k) != b.get(k): probs.append("%s: snapshot stroke %s %s %r vs began %r" % (name, sid, k, o.get(k), b.get(k)))
        if o.get("flags", []) != b.get("flags", []): probs.append("%s: snapshot stroke %s flags %r vs began %r" % (name, sid, o.get("flags"), b.get("flags")))
        if o.get("state") != "inProgress": probs.append("%s: snapshot stroke state %r" % (name, o.get("state")))
    cut = [s for s in sn["strokes"] if s.get("pointsOmitted")]
    if cut:
        cnt = {len(s["points"]) for s in cut}
        if len(cnt) != 1: probs.append("%s: cut strokes keep different counts %s" % (name, cnt))
        else:
            c0 = cnt.pop()
            for s in sn["strokes"]:
                if not s.get("pointsOmitted") and len(s["points"]) > c0: probs.append("%s: whole stroke %s has %d points > cut count %d" % (name, s["stroke"], len(s["points"]), c0))
    stream = [m for m in jlog[jlog.index(sn) + 1:] if "seq" in m and m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved")]
    refmax = max([m["seq"] for m in reflog if "seq" in m and m.get("type") != "reply" and m.get("type") != "snapshot"] or [0])
    stream = [m for m in stream if m["seq"] <= refmax]
    if stream:
        refby = {m["seq"]: m for m in reflog if "seq" in m and m.get("type") in ("began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved")}
        want = [refby.get(q) for q in range(S + 1, stream[-1]["seq"] + 1)]
        if stream != want:
            j = next((k for k, (a, b) in enumerate(zip(stream, want)) if a != b), min(len(stream), len(want)))
            probs.append("%s: stream after snapshot %d differs from reference at index %d: got %s want %s" % (name, S, j,
                json.dumps(stream[j])[:160] if j < len(stream) else None, json.dumps(want[j])[:160] if j < len(want) else None))
    return probs
# ---- end exact ----

def read_into(c, log, stop):
    """Appends what `c` reads to `log` until `stop` is set; a failed read ends it with an `exc` entry."""
    while not stop.is_set():
        try: log.append(c.read(timeout=0.2))
        except socket.timeout: pass
        except Exception as e: log.append({"type": "exc", "e": repr(e)}); return
