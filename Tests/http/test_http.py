"""The daemon's HTTP side from standard-library Python: http.client for the JSON endpoints and
Server-Sent Events, a minimal WebSocket client over a plain socket. Run by Scripts/http-test.sh
against `strokes daemon --replay … --http 127.0.0.1:PORT` ($STROKES_BIN, else the debug build)."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import os
import socket
import struct
import subprocess
import tempfile
import time
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "Tests" / "ReplayTests" / "Fixtures" / "01-wacom-dth2242-touchscreen-10finger.evemu"
STREAM_TYPES = {"began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def context_switches(pid: int) -> dict:
    """Context switches of each thread of the daemon (its event loop, NIO's singleton loops that
    run its tasks, libdispatch's, the evdev reader's), by thread id: a change is a wake-up. Before
    the daemon ran its tasks on NIO's loops, libdispatch's pool monitor woke it once a second."""
    counts = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        total = 0
        for line in (task / "status").read_text().splitlines():
            if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                total += int(line.split()[1])
        counts[task.name] = total
    return counts


class Daemon:
    def __init__(self, *args: str) -> None:
        self.directory = tempfile.mkdtemp(prefix="strokes-http-py-")
        self.port = free_port()
        binary = os.environ.get("STROKES_BIN") or str(REPO / ".build" / "debug" / "strokes")
        self.log = open(os.path.join(self.directory, "daemon.log"), "wb")
        self.process = subprocess.Popen(
            [binary, "daemon", "--socket", os.path.join(self.directory, "s.sock"), "--replay", str(FIXTURE),
             "--http", f"127.0.0.1:{self.port}", "--log-level", "warning", *args],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the daemon exited: {Path(self.log.name).read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the daemon did not listen")

    def stop(self) -> int:
        self.process.terminate()
        code = self.process.wait(timeout=30)
        self.log.close()
        return code

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)


def sse_events(response: http.client.HTTPResponse):
    """Yields (event, id, data) for each Server-Sent Event of `response`."""
    event, ident, data = None, None, None
    while True:
        line = response.readline()
        if not line:
            return
        line = line.decode().rstrip("\n")
        if line == "":
            if data is not None:
                yield event, ident, data
            event, ident, data = None, None, None
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("id: "):
            ident = line[4:]
        elif line.startswith("data: "):
            data = line[6:]


class WebSocket:
    """Just enough of RFC 6455 for a client: the handshake, masked text frames out, frames in."""

    def __init__(self, port: int, path: str = "/ws", origin: str | None = None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                   f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
        if origin:
            request += f"Origin: {origin}\r\n"
        self.sock.sendall((request + "\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode().split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
        if self.status == 101:
            expected = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
            assert self.headers["sec-websocket-accept"] == expected.decode()

    def send(self, text: str, opcode: int = 1) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def frame(self) -> tuple[int, bytes]:
        b0, b1 = self._take(2)
        length = b1 & 0x7F
        if length == 126:
            length = struct.unpack(">H", self._take(2))[0]
        elif length == 127:
            length = struct.unpack(">Q", self._take(8))[0]
        return b0 & 0x0F, self._take(length)

    def message(self) -> dict:
        while True:
            opcode, payload = self.frame()
            if opcode == 1:
                return json.loads(payload)
            if opcode == 8:
                raise ConnectionError("closed by the daemon")

    def close(self) -> None:
        self.sock.close()


class HTTPTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.daemon = Daemon()

    @classmethod
    def tearDownClass(cls) -> None:
        assert cls.daemon.stop() == 0

    def get(self, target: str, method: str = "GET"):
        c = self.daemon.connection()
        c.request(method, target)
        r = c.getresponse()
        body = r.read()
        c.close()
        return r, body

    def test_json_endpoints(self) -> None:
        r, body = self.get("/devices")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Type"), "application/json")
        reply = json.loads(body)
        self.assertEqual(reply["type"], "reply")
        self.assertEqual(reply["request"], "devices")
        self.assertEqual(reply["devices"][0]["name"], "Wacom DTH2242 Finger")
        for target, request in [("/live", "live"), ("/history?limit=3", "history"), ("/stats", "stats")]:
            r, body = self.get(target)
            self.assertEqual(r.status, 200, target)
            self.assertEqual(json.loads(body)["request"], request)
        r, body = self.get("/healthz")
        self.assertEqual(json.loads(body)["status"], "ok")
        r, body = self.get("/render.svg")
        self.assertEqual(r.status, 200)
        self.assertIn(b"<svg", body)
        r, body = self.get("/")
        self.assertEqual(r.status, 200)
        self.assertTrue(r.getheader("Content-Type").startswith("text/html"))

    def test_errors_are_json(self) -> None:
        r, body = self.get("/nothing-here")
        self.assertEqual(r.status, 404)
        self.assertEqual(json.loads(body)["error"], "unknownRequest")
        r, body = self.get("/devices", method="POST")
        self.assertEqual(r.status, 405)
        self.assertEqual(r.getheader("Allow"), "GET, HEAD")
        # HEAD: the head a GET gets, no body (http.client reads none for a HEAD).
        r, body = self.get("/devices", method="HEAD")
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Type"), "application/json")
        self.assertGreater(int(r.getheader("Content-Length")), 0)
        self.assertEqual(body, b"")
        r, body = self.get("/live?devices=one")
        self.assertEqual(r.status, 400)
        self.assertEqual(json.loads(body)["error"], "badArgument")

    def test_sse_stream_and_last_event_id_resume(self) -> None:
        c = self.daemon.connection()
        c.request("GET", "/events")
        r = c.getresponse()
        self.assertEqual(r.status, 200)
        self.assertEqual(r.getheader("Content-Type"), "text/event-stream; charset=utf-8")
        events = sse_events(r)
        self.assertEqual(next(events)[0], "hello")
        self.assertEqual(next(events)[0], "reply")
        kind, ident, data = next(events)
        self.assertEqual(kind, "snapshot")
        self.assertEqual(ident, str(json.loads(data)["seq"]))
        last = int(ident)
        for _ in range(50):
            kind, ident, data = next(events)
            message = json.loads(data)
            self.assertIsNone(kind)
            self.assertIn(message["type"], STREAM_TYPES)
            self.assertEqual(int(ident), message["seq"])
            self.assertEqual(message["seq"], last + 1 + message.get("merged", 0))
            last = message["seq"]
        c.close()
        time.sleep(0.3)  # the stream goes on meanwhile
        c = self.daemon.connection()
        c.request("GET", "/events", headers={"Last-Event-ID": str(last)})
        events = sse_events(c.getresponse())
        self.assertEqual(next(events)[0], "hello")
        kind, _, data = next(events)
        self.assertEqual(kind, "reply")
        self.assertTrue(json.loads(data)["resumed"])
        kind, ident, data = next(events)
        self.assertEqual(json.loads(data)["seq"], last + 1)  # nothing lost, nothing repeated
        c.close()
        # A sequence number far beyond the resume buffer: gapTooOld and a snapshot.
        c = self.daemon.connection()
        c.request("GET", "/events?lastEventId=0")
        events = sse_events(c.getresponse())
        next(events)
        reply = json.loads(next(events)[2])
        if not reply["resumed"]:
            self.assertEqual(reply["reason"], "gapTooOld")
            self.assertEqual(next(events)[0], "snapshot")
        c.close()

    def test_websocket_speaks_protocol_1(self) -> None:
        ws = WebSocket(self.daemon.port)
        self.assertEqual(ws.status, 101)
        hello = ws.message()
        self.assertEqual(hello["type"], "hello")
        self.assertEqual(hello["protocol"], 1)
        ws.send('{"id":1,"request":"subscribe"}')
        reply = ws.message()
        self.assertEqual((reply["type"], reply["id"]), ("reply", 1))
        snapshot = ws.message()
        self.assertEqual(snapshot["type"], "snapshot")
        last = snapshot["seq"]
        for _ in range(50):
            m = ws.message()
            self.assertEqual(m["seq"], last + 1 + m.get("merged", 0))
            last = m["seq"]
        ws.send('{"id":"p","request":"ping"}')
        while True:
            m = ws.message()
            if m["type"] == "reply":
                self.assertEqual(m["id"], "p")
                break
        # Requests are text: a binary frame is data the daemon cannot accept (close 1003).
        ws.send("\x00\x01", opcode=2)
        while True:
            opcode, payload = ws.frame()
            if opcode == 8:
                self.assertEqual(struct.unpack(">H", payload[:2])[0], 1003)
                break
        ws.close()

    def test_websocket_from_a_foreign_origin_is_refused(self) -> None:
        ws = WebSocket(self.daemon.port, path="/ws?token=do-not-log-me", origin="http://evil.example")
        self.assertEqual(ws.status, 403)
        ws.close()
        # Logged (the first refusal at warning, then the 2nd, 4th, 8th …).
        deadline = time.monotonic() + 5
        while "HTTP request refused: origin" not in Path(self.daemon.log.name).read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertIn("HTTP request refused: origin", Path(self.daemon.log.name).read_text())
        self.assertNotIn("do-not-log-me", Path(self.daemon.log.name).read_text())
        ws = WebSocket(self.daemon.port, origin=f"http://localhost:{self.daemon.port}")
        self.assertEqual(ws.status, 101)
        ws.close()


class SafetyTests(unittest.TestCase):
    def test_a_listener_other_machines_reach_needs_a_token(self) -> None:
        binary = os.environ.get("STROKES_BIN") or str(REPO / ".build" / "debug" / "strokes")
        with tempfile.TemporaryDirectory() as directory:
            r = subprocess.run(
                [binary, "daemon", "--socket", os.path.join(directory, "s.sock"), "--replay", str(FIXTURE),
                 "--http", f"0.0.0.0:{free_port()}"], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 78)
        self.assertIn("set http.token", r.stderr)


class ShutdownTests(unittest.TestCase):
    def test_sigterm_says_goodbye_to_websocket_and_sse_clients(self) -> None:
        daemon = Daemon()
        ws = WebSocket(daemon.port)
        ws.message()
        ws.send('{"id":1,"request":"subscribe"}')
        c = daemon.connection()
        c.request("GET", "/events")
        events = sse_events(c.getresponse())
        for _ in range(3):
            next(events)
        time.sleep(0.3)
        daemon.process.terminate()
        last = None
        while True:
            opcode, payload = ws.frame()
            if opcode == 8:
                self.assertEqual(payload[:2], b"\x03\xe8")
                break
            last = json.loads(payload)
        self.assertEqual((last["type"], last["reason"]), ("goodbye", "shutdown"))
        kinds = [kind for kind, _, _ in events]  # to the end of the response
        self.assertEqual(kinds[-1], "goodbye")
        self.assertEqual(daemon.process.wait(timeout=30), 0)
        daemon.log.close()
        ws.close()
        c.close()


class InUseTests(unittest.TestCase):
    def test_an_http_address_in_use_exits_69_and_leaves_no_socket(self) -> None:
        first = Daemon()
        try:
            binary = os.environ.get("STROKES_BIN") or str(REPO / ".build" / "debug" / "strokes")
            with tempfile.TemporaryDirectory() as directory:
                sock = os.path.join(directory, "s.sock")
                r = subprocess.run(
                    [binary, "daemon", "--socket", sock, "--replay", str(FIXTURE), "--http", f"127.0.0.1:{first.port}"],
                    capture_output=True, text=True, timeout=30)
                self.assertEqual(r.returncode, 69, r.stderr)
                self.assertIn("is in use", r.stderr)
                self.assertFalse(os.path.exists(sock))
        finally:
            self.assertEqual(first.stop(), 0)


class IdleTests(unittest.TestCase):
    def test_no_wake_ups_with_stream_clients_connected(self) -> None:
        """Nothing touches (a recording played once, fast): with an SSE and a WebSocket client
        subscribed, the daemon sleeps: no keep-alive, no timer, no polling."""
        daemon = Daemon("--no-loop", "--speed", "0", "--replay",
                        str(REPO / "Tests" / "ReplayTests" / "Fixtures" / "03-atmel-maxtouch-touchscreen-4finger-drag.evemu"))
        try:
            c = daemon.connection()
            c.request("GET", "/events")
            events = sse_events(c.getresponse())
            for _ in range(3):
                next(events)
            ws = WebSocket(daemon.port)
            ws.message()
            ws.send('{"id":1,"request":"subscribe"}')
            ws.message()
            ws.message()
            time.sleep(1)
            before = context_switches(daemon.process.pid)
            time.sleep(3)
            after = context_switches(daemon.process.pid)
            # A thread that exited meanwhile did not wake; one that appeared did.
            woke = {tid: (before.get(tid, 0), n) for tid, n in after.items() if before.get(tid) != n}
            self.assertEqual(woke, {}, "threads of the daemon woke up while idle")
            ws.close()
            c.close()
        finally:
            self.assertEqual(daemon.stop(), 0)


if __name__ == "__main__":
    unittest.main()
