"""What the slow-client round's scripts (140-143, holds-140 to holds-147) share, as their tester
wrote it: daemons of their own (`start`, killed at exit with everything in `PROCS`), a line
client (`C`), `stats`, the daemon's RSS, raw HTTP and WebSocket connections. Each script does
`from slow_round import *`."""
import os, sys, socket, subprocess, time, json, tempfile, shutil, signal, atexit
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import BIN, FIX  # noqa: E402 (argv[1] or the debug build; the fixtures)
F01 = os.path.join(FIX, "01-wacom-dth2242-touchscreen-10finger.evemu")
TMP = tempfile.mkdtemp(prefix="adv21-", dir="/tmp")
PROCS = []
def cleanup():
    for p in PROCS:
        try:
            os.kill(p.pid, signal.SIGCONT)
        except Exception: pass
        try:
            p.kill(); p.wait(timeout=5)
        except Exception: pass
    shutil.rmtree(TMP, ignore_errors=True)
atexit.register(cleanup)
def _sig(*a): sys.exit(2)
signal.signal(signal.SIGTERM, _sig)
def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
def start(queue=None, speed="10", fix=None, http=False, extra=None, loop=True):
    sock = os.path.join(TMP, "s%d.sock" % len(PROCS))
    cfg = os.path.join(TMP, "c%d.yaml" % len(PROCS))
    lines = ["maxClients: 1000", "maxClientsPerUid: 1000"]
    if queue:
        lines.append("queue:")
        for k, v in queue.items(): lines.append("  %s: %s" % (k, v))
    if extra: lines += extra
    open(cfg, "w").write("\n".join(lines) + "\n")
    args = [BIN, "daemon", "--config", cfg, "--socket", sock, "--replay", fix or F01, "--speed", str(speed), "--log-level", "warning"]
    args.append("--loop" if loop else "--no-loop")
    port = None
    if http:
        port = free_port(); args += ["--http", "127.0.0.1:%d" % port]
    log = open(os.path.join(TMP, "log%d" % len(PROCS)), "w")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    PROCS.append(p)
    for _ in range(200):
        if os.path.exists(sock):
            try:
                c = socket.socket(socket.AF_UNIX); c.connect(sock); c.close(); break
            except Exception: pass
        if p.poll() is not None: raise RuntimeError("daemon exited %s" % p.returncode)
        time.sleep(0.05)
    return p, sock, port
def rss(p):
    for l in open("/proc/%d/status" % p.pid):
        if l.startswith("VmRSS"): return int(l.split()[1]) // 1024
class C:
    def __init__(s, path, rcvbuf=None):
        s.s = socket.socket(socket.AF_UNIX)
        if rcvbuf: s.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        s.s.connect(path); s.buf = b""
    def send(s, obj): s.s.sendall((json.dumps(obj) + "\n").encode())
    def line(s, timeout=10):
        s.s.settimeout(timeout)
        while b"\n" not in s.buf:
            d = s.s.recv(65536)
            if not d: return None
            s.buf += d
        l, s.buf = s.buf.split(b"\n", 1)
        return json.loads(l)
    def until(s, pred, timeout=10):
        end = time.time() + timeout
        while True:
            m = s.line(max(0.01, end - time.time()))
            if m is None or pred(m): return m
    def close(s): s.s.close()
def stats(path):
    c = C(path); c.line(); c.send({"id": "st", "request": "stats"})
    m = c.until(lambda m: m.get("type") == "reply"); c.close(); return m
import base64, struct
def http_conn(port, path, rcvbuf=4096, ws=False):
    s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf); s.connect(("127.0.0.1", port))
    h="GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % (path, port)
    if ws: h+="Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\n" % base64.b64encode(os.urandom(16)).decode()
    s.sendall((h+"\r\n").encode()); return s
def ws_frame(text, opcode=1):
    b=text.encode() if isinstance(text,str) else text; mask=os.urandom(4)
    hdr=bytes([0x80|opcode]); n=len(b)
    if n<126: hdr+=bytes([0x80|n])
    elif n<65536: hdr+=bytes([0x80|126])+struct.pack(">H",n)
    else: hdr+=bytes([0x80|127])+struct.pack(">Q",n)
    return hdr+mask+bytes(x^mask[i%4] for i,x in enumerate(b))


def drain(s, t=3):
    """What `s` sends until it closes or is quiet for `t` s."""
    s.settimeout(t); data = b""
    try:
        while True:
            d = s.recv(65536)
            if not d: return data
            data += d
    except socket.timeout: return data

def fast_subscriber(sock, res, seconds=14):
    """A subscriber that reads everything for `seconds`, then unsubscribes: into `res`, the
    messages it got (`n`), the moves merged into them (`mg`) and `diff`, the last seq less the
    snapshot's, `n` and `mg` (0 when nothing was lost); `bye`, a goodbye or the end it met."""
    c = C(sock); c.line(); c.send({"id": 1, "request": "subscribe"}); c.line(); s0 = c.line()["seq"]; last = s0; n = 0; mg = 0
    t = time.time()
    while time.time() - t < seconds:
        m = c.line()
        if m is None or m["type"] == "goodbye": res["bye"] = m; return
        n += 1; mg += m.get("merged", 0); last = m["seq"]
    c.send({"id": 2, "request": "unsubscribe"})
    while True:
        m = c.line()
        if m is None or m["type"] == "goodbye": res["bye"] = m; return
        if m["type"] == "reply": break
        n += 1; mg += m.get("merged", 0); last = m["seq"]
    res.update(n=n, mg=mg, diff=last - s0 - n - mg); c.close()
