"""The blocking client: one connection, requests, and a subscription that reconnects."""

from __future__ import annotations

import json
import socket
import time
from collections import deque
from typing import Any, Deque, Dict, Iterator, List, Optional, Sequence

from .errors import ConnectionLost, DaemonError, ProtocolError
from .messages import (DevicesReply, ErrorMessage, Goodbye, Hello, HistoryReply, LiveReply, Message,
                       PingReply, Reply, StatsReply, Stroke, SubscribeReply, parse_line)
from .stream import Backoff, Event, ShortSessions, StreamState, default_socket_path

__all__ = ["Client", "DEFAULT_MAX_LINE", "PROTOCOL"]

#: The protocol version this package speaks.
PROTOCOL = 1
#: The longest line accepted from the daemon. A snapshot holds every point of the strokes in
#: progress and may reach the daemon's queue.disconnectAfterBytes (4 MiB by default).
DEFAULT_MAX_LINE = 64 * 1024 * 1024


def check_hello(message: Message) -> Hello:
    """The greeting, or the error a daemon sends instead of one (``tooManyClients``,
    ``forbidden``) as a `DaemonError`."""
    if isinstance(message, ErrorMessage):
        raise DaemonError(message.error, message.message, message.id, message.raw)
    if not isinstance(message, Hello):
        raise ProtocolError(f"expected the daemon's 'hello', got '{message.raw.get('type')}'")
    if message.protocol != PROTOCOL:
        raise ProtocolError(f"the daemon speaks protocol {message.protocol}, this client {PROTOCOL}")
    return message


def check_reply(message: Message, id: int, request: str) -> Reply:
    """The reply to request ``id`` named ``request``; an ``error`` raises `DaemonError`, a reply
    to another request `ProtocolError`."""
    if isinstance(message, ErrorMessage):
        raise DaemonError(message.error, message.message, id, message.raw)
    if not isinstance(message, Reply) or message.request != request:
        raise ProtocolError(f"a '{message.raw.get('request')}' reply to request {id}, a '{request}'")
    return message


def request_line(id: int, request: str, keys: Dict[str, Any]) -> bytes:
    body = {"id": id, "request": request}
    body.update({k: v for k, v in keys.items() if v is not None})
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


class Client:
    """A connection to the daemon.

    >>> with Client.connect("/run/strokes/strokes.sock") as client:
    ...     for event in client.subscribe():
    ...         print(event)

    Not thread-safe: use one client per thread. Requests may be made while iterating a
    subscription (stream messages that arrive before the reply are kept for the iterator).
    """

    def __init__(self, path: str, *, timeout: Optional[float] = None, max_line: int = DEFAULT_MAX_LINE):
        self.path = path
        self.timeout = timeout
        self.max_line = max_line
        self.hello: Optional[Hello] = None
        self._sock: Optional[socket.socket] = None
        self._file: Any = None
        self._next_id = 0
        self._pending: Deque[Message] = deque()  # stream messages read while waiting for a reply
        self._closed = False  # by the caller: a subscription ends instead of reconnecting

    @classmethod
    def connect(cls, path: Optional[str] = None, *, timeout: Optional[float] = None,
                max_line: int = DEFAULT_MAX_LINE) -> "Client":
        """Connects and reads the greeting (``client.hello``). ``timeout`` bounds every read, in
        seconds (``TimeoutError``); None waits as long as it takes."""
        client = cls(path or default_socket_path(), timeout=timeout, max_line=max_line)
        client._open()
        return client

    # Connection.

    def _open(self) -> None:
        self._disconnect()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.path)
        except OSError as e:
            sock.close()
            raise ConnectionLost(f"cannot connect to {self.path}: {e.strerror or e}") from e
        self._sock, self._file = sock, sock.makefile("rb")
        self._pending.clear()
        try:
            self.hello = check_hello(self._read())
        except BaseException:
            self._disconnect()
            raise

    def close(self) -> None:
        """Closes the connection; a subscription being iterated ends with `ConnectionLost`."""
        self._closed = True
        self._disconnect()

    def _not_connected(self) -> str:
        return "the client was closed" if self._closed else "not connected"

    def _disconnect(self) -> None:
        if self._sock is not None:
            self._file.close()
            self._sock.close()
            self._sock = self._file = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _read(self) -> Message:
        if self._file is None:
            raise ConnectionLost(self._not_connected())
        try:
            line = self._file.readline(self.max_line + 1)
        except (ConnectionResetError, BrokenPipeError) as e:
            raise ConnectionLost(f"connection to {self.path} lost: {e.strerror}") from e
        if not line.endswith(b"\n"):
            if len(line) > self.max_line:
                raise ProtocolError(f"a line from {self.path} is longer than {self.max_line} bytes")
            raise ConnectionLost(f"{self.path} closed the connection" + (" in the middle of a line" if line else ""))
        return parse_line(line)

    def _send(self, data: bytes) -> None:
        if self._sock is None:
            raise ConnectionLost(self._not_connected())
        try:
            self._sock.sendall(data)
        except (ConnectionResetError, BrokenPipeError) as e:
            raise ConnectionLost(f"connection to {self.path} lost: {e.strerror}") from e

    def next_message(self) -> Message:
        """The next message on the connection, whatever it is (stream messages kept while
        waiting for a reply come first)."""
        return self._pending.popleft() if self._pending else self._read()

    # Requests.

    def request(self, request: str, **keys: Any) -> Reply:
        """Sends a request (keys as on the wire; None leaves a key out) and returns its reply,
        typed by request name; an ``error`` reply raises `DaemonError`."""
        self._next_id += 1
        id = self._next_id
        self._send(request_line(id, request, keys))
        while True:
            message = self._read()
            if isinstance(message, (Reply, ErrorMessage)) and message.id == id:
                return check_reply(message, id, request)
            self._pending.append(message)

    def ping(self) -> PingReply:
        return self.request("ping")  # type: ignore[return-value]

    def devices(self) -> DevicesReply:
        return self.request("devices")  # type: ignore[return-value]

    def live(self, devices: Optional[Sequence[int]] = None) -> LiveReply:
        return self.request("live", devices=devices)  # type: ignore[return-value]

    def stats(self) -> StatsReply:
        return self.request("stats")  # type: ignore[return-value]

    def history(self, limit: Optional[int] = None, devices: Optional[Sequence[int]] = None,
                cursor: Optional[str] = None) -> HistoryReply:
        """One page of completed strokes (docs/protocol.md, "History pages")."""
        return self.request("history", limit=limit, devices=devices, cursor=cursor)  # type: ignore[return-value]

    def history_all(self, limit: Optional[int] = None, devices: Optional[Sequence[int]] = None) -> List[Stroke]:
        """Every page of a history selection, oldest first."""
        page = self.history(limit, devices)
        strokes = list(page.strokes)
        while page.cursor is not None:
            page = self.history(limit, devices, page.cursor)
            strokes += page.strokes
        return strokes

    # The stream.

    def subscribe(self, devices: Optional[Sequence[int]] = None, events: Optional[Sequence[str]] = None, *,
                  resume_after: Optional[int] = None, reconnect: bool = True,
                  backoff: Backoff = Backoff()) -> Iterator[Event]:
        """Subscribes and yields the stream: a `Snapshot`, then stroke, hover and device events
        (and ``goodbye``, errors without a request, unknown types) as they come.

        ``resume_after`` starts after that sequence number of the daemon that greeted this
        client (0: everything it still holds) instead of with a snapshot.

        With ``reconnect``, a lost connection (a ``goodbye``, a daemon restart, a reset) is
        re-established with ``backoff`` and the subscription resumed after the last sequence
        number delivered: nothing is delivered twice. When that cannot be done the iterator
        yields a `Gap` (``gapTooOld``, ``restarted``) and then the new `Snapshot`. It raises
        `ConnectionLost` when ``backoff.attempts`` reconnections in a row fail (a reconnection
        fails unless the daemon answers its ``subscribe``), or at the first loss without
        ``reconnect``. A subscription lost within ``backoff.maximum`` seconds of being answered
        waits ``backoff.delay`` before reconnecting, longer for each such loss in a row
        (`ShortSessions`): a daemon that answers and closes every time is not hammered."""
        state = StreamState(devices, events, resume_after)
        failures = 0  # reconnections in a row that did not get the subscription back
        short = ShortSessions(backoff)
        while True:
            if self._sock is None:
                # Outside the try: giving up ends the subscription.
                failures = self._reconnect(backoff, failures)
            try:
                if self.hello is None:
                    raise ConnectionLost(self._not_connected())
                keys, gap = state.subscribe_keys(self.hello)
                if gap:
                    yield gap
                reply = self.request("subscribe", **keys)
                if not isinstance(reply, SubscribeReply):
                    raise ProtocolError(f"the reply to 'subscribe' is a '{reply.request}' reply")
                failures = 0
                short.subscribed(time.monotonic())
                gap = state.on_reply(reply)
                if gap:
                    yield gap
                while True:
                    message = self.next_message()
                    yield from state.on_message(message)
                    if isinstance(message, Goodbye):
                        raise ConnectionLost(f"the daemon said goodbye ({message.reason})")
            except ConnectionLost as e:
                self._disconnect()
                if not reconnect or self._closed:
                    raise
                if failures:  # a reconnection lost before its subscribe was answered
                    time.sleep(retry_delay(backoff, failures, e))
                elif wait := short.lost(time.monotonic()):
                    time.sleep(wait)

    def _reconnect(self, backoff: Backoff, failures: int) -> int:
        """Connects again after ``failures`` failed reconnections in a row; returns the count
        with this one, which fails until its subscribe is answered."""
        while True:
            if self._closed:
                raise ConnectionLost("the client was closed")
            try:
                self._open()
                return failures + 1
            except ConnectionLost as e:
                error: Exception = e
            except DaemonError as e:
                if e.code != "tooManyClients":
                    raise
                error = e
            failures += 1
            time.sleep(retry_delay(backoff, failures, error))


def retry_delay(backoff: Backoff, failures: int, error: Exception) -> float:
    """The wait after ``failures`` failed reconnections in a row, or `ConnectionLost` when
    ``backoff.attempts`` have failed."""
    if backoff.attempts is not None and failures >= backoff.attempts:
        raise ConnectionLost(f"gave up reconnecting after {failures} attempts: {error}") from error
    return backoff.delay(failures)
