"""What the tests run against: a real `strokes daemon`, a proxy that can cut connections, and
fake servers that send what they are told."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable, List, Optional

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "Tests" / "ReplayTests" / "Fixtures"
GOLDEN = REPO / "Tests" / "ReplayTests" / "Golden"


def strokes_binary() -> str:
    """``$STROKES_BIN``, else the debug build (Scripts/test.sh builds it)."""
    path = os.environ.get("STROKES_BIN") or str(REPO / ".build" / "debug" / "strokes")
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"no strokes binary at {path}: run `swift build --product strokes` or set STROKES_BIN")
    return path


def golden(name: str) -> List[dict]:
    return [json.loads(line) for line in (GOLDEN / name).read_text().splitlines()]


class Daemon:
    """`strokes daemon --replay FIXTURE` on a socket in a fresh directory."""

    def __init__(self, recording: str, *args: str, config: Optional[str] = None,
                 directory: Optional[str] = None, socket_path: Optional[str] = None):
        self.directory = directory or tempfile.mkdtemp(prefix="strokes-py-")
        self.socket_path = socket_path or os.path.join(self.directory, "strokes.sock")
        command = [strokes_binary(), "daemon", "--socket", self.socket_path, "--replay", str(FIXTURES / recording),
                   "--log-level", "warning", *args]
        if config is not None:
            config_path = os.path.join(self.directory, f"strokes-{time.monotonic_ns()}.yaml")
            Path(config_path).write_text(config)
            command += ["--config", config_path]
        self.log_path = os.path.join(self.directory, f"daemon-{time.monotonic_ns()}.log")
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
        self._wait_until_serving()

    def _wait_until_serving(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the daemon exited ({self.process.returncode}): {self.log}")
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                    s.connect(self.socket_path)
                    s.settimeout(5)
                    if s.recv(1):  # the greeting: listening, not merely bound
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"the daemon did not serve {self.socket_path} within 30 s: {self.log}")

    @property
    def log(self) -> str:
        return Path(self.log_path).read_text(errors="replace")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=30)

    def close(self, remove: bool = True) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if remove:
            shutil.rmtree(self.directory, ignore_errors=True)


class Proxy:
    """A Unix socket that forwards each connection to ``upstream``, byte for byte. `cut()` closes
    every connection in both directions (a dropped connection for the client and the daemon);
    while `hold` is set, connections are accepted and closed at once, before any greeting."""

    def __init__(self, upstream: str, path: str):
        self.upstream, self.path = upstream, path
        self.hold = threading.Event()
        self._connections: List[socket.socket] = []
        self._lock = threading.Lock()
        self._listener = _listen(path)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while (downstream := _accepted(self._listener)) is not None:
            if self.hold.is_set():
                downstream.close()
                continue
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(self.upstream)
            except OSError:
                downstream.close()
                continue
            with self._lock:
                self._connections += [downstream, upstream]
            pumps = [threading.Thread(target=self._pump, args=pair, daemon=True)
                     for pair in ((downstream, upstream), (upstream, downstream))]
            for pump in pumps:
                pump.start()
            threading.Thread(target=self._close_after, args=(pumps, downstream, upstream), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    @staticmethod
    def _close_after(pumps: List[threading.Thread], *sockets: socket.socket) -> None:
        for pump in pumps:
            pump.join()
        for s in sockets:
            s.close()

    def cut(self) -> None:
        with self._lock:
            connections, self._connections = self._connections, []
        for s in connections:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.cut()
        _close_listener(self._listener)


class FakeServer:
    """Serves each connection with ``script(connection)`` on a thread."""

    def __init__(self, directory: str, script: Callable[[socket.socket], None]):
        self.path = os.path.join(directory, "fake.sock")
        self._listener = _listen(self.path)
        self.script = script
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while (connection := _accepted(self._listener)) is not None:
            threading.Thread(target=self._serve, args=(connection,), daemon=True).start()

    def _serve(self, connection: socket.socket) -> None:
        try:
            self.script(connection)
        except OSError:
            pass
        finally:
            connection.close()

    def close(self) -> None:
        _close_listener(self._listener)


def _listen(path: str) -> socket.socket:
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    # accept() wakes up now and then to see whether the listener was closed: closing it from
    # another thread does not interrupt a blocked accept(), which would go on accepting.
    listener.settimeout(0.1)
    return listener


def _accepted(listener: socket.socket) -> Optional[socket.socket]:
    """The next connection (blocking); None once the listener is closed."""
    while listener.fileno() != -1:
        try:
            connection, _ = listener.accept()
        except socket.timeout:
            continue
        except OSError:
            return None
        connection.settimeout(None)
        return connection
    return None


def _close_listener(listener: socket.socket) -> None:
    if listener.fileno() == -1:
        return
    path = listener.getsockname()
    listener.close()
    try:
        os.unlink(path)
    except OSError:
        pass


HELLO = (b'{"type":"hello","protocol":1,"daemon":"strokes 0.2.0","instance":"fake","seq":0,'
         b'"features":["subscribe"],"maxLineLength":65536}\n')


def read_request(connection: socket.socket) -> dict:
    data = b""
    while not data.endswith(b"\n"):
        chunk = connection.recv(4096)
        if not chunk:
            raise OSError("closed")
        data += chunk
    return json.loads(data)
