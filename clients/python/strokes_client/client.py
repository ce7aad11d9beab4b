"""The blocking client: one connection, requests, and a subscription that reconnects."""

from __future__ import annotations

import json
import socket
import time
from collections import deque
from typing import Any, Deque, Dict, Iterator, Optional, Sequence, Set

from .errors import ConnectionLost, DaemonError, ProtocolError
from .messages import (STREAM_TYPES, DevicesReply, ErrorMessage, Gesture, Goodbye, Hello, HistoryReply, Hover,
                       LiveReply, Message, PingReply, Reply, Snapshot, StatsReply, Stroke, SubscribeReply,
                       parse_line)
from .stream import Backoff, Event, ShortSessions, StreamState, default_socket_path

__all__ = ["Client", "DEFAULT_MAX_LINE", "GREETING_TIMEOUT", "History", "PROTOCOL"]

#: The protocol version this package speaks.
PROTOCOL = 1
#: The longest line accepted from the daemon. A snapshot holds every point of the strokes in
#: progress and may reach the daemon's queue.disconnectAfterBytes (4 MiB by default).
DEFAULT_MAX_LINE = 64 * 1024 * 1024
#: Seconds a (re)connection waits for the daemon's ``hello`` before it fails (`ConnectionLost`):
#: a stopped daemon's socket, whose connections the kernel still completes, never greets
#: (docs/protocol.md, "Session").
GREETING_TIMEOUT = 5.0
#: Messages of a subscription: those of an earlier one still unread when a new ``subscribe`` is
#: sent on the same connection are dropped (the new one starts with its own snapshot or resume).
SUBSCRIPTION_TYPES = STREAM_TYPES + (Hover, Gesture, Snapshot)


class History(list):
    """What ``history_all()`` returns: the strokes (a list, oldest first), and ``missed``, the
    sum of the pages' ``missed``: strokes of the selection that left the daemon's history while
    it was paged (docs/protocol.md, "History pages"); 0 when none did."""

    def __init__(self, strokes: Any = (), missed: int = 0):
        super().__init__(strokes)
        self.missed = missed


class GoodbyeToSubscribe(ConnectionLost):
    """The daemon answered a ``subscribe`` with ``goodbye`` alone (``reason``)."""

    def __init__(self, reason: str):
        super().__init__(f"the daemon answered the subscribe with goodbye ({reason})")
        self.reason = reason


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
    subscription: stream messages that arrive before the reply are kept for the iterator, up to
    ``queue_size`` of them. Past that the client has fallen behind, as the daemon's slow clients
    do: it drops what follows (rather than growing this process's memory) and, once the
    iterator has taken what it kept, the subscription reconnects and resumes after it (a `Gap`
    when the daemon no longer holds what was dropped), as `AsyncClient` does.
    """

    def __init__(self, path: str, *, timeout: Optional[float] = None, max_line: int = DEFAULT_MAX_LINE,
                 queue_size: int = 8192):
        self.path = path
        self.timeout = timeout
        self.max_line = max_line
        self.queue_size = queue_size
        self.hello: Optional[Hello] = None
        self._sock: Optional[socket.socket] = None
        self._buffer = bytearray()  # what was received and not yet read as lines
        self._start = 0  # where the next line begins in _buffer (those before it were read)
        self._scanned = 0  # how much of _buffer holds no newline
        self._next_id = 0
        self._pending: Deque[Message] = deque()  # stream messages read while waiting for a reply
        self._behind = False  # _pending was full: messages were dropped until a reconnection
        self._abandoned: Set[Any] = set()  # ids of requests that timed out: their late replies are skipped
        self._closed = False  # by the caller: a subscription ends instead of reconnecting

    @classmethod
    def connect(cls, path: Optional[str] = None, *, timeout: Optional[float] = None,
                max_line: int = DEFAULT_MAX_LINE, queue_size: int = 8192) -> "Client":
        """Connects and reads the greeting (``client.hello``).

        ``timeout`` (seconds; None: as long as it takes) bounds the wait for each reply to a
        request: past it the request raises ``TimeoutError`` and the client stays usable (a
        late reply is skipped). It does not bound a subscription's wait for its next stream
        message: an idle daemon sends nothing for as long as nobody touches. The greeting is
        awaited at most `GREETING_TIMEOUT` (5 s) or ``timeout`` if smaller, then the connection
        fails (`ConnectionLost`)."""
        client = cls(path or default_socket_path(), timeout=timeout, max_line=max_line, queue_size=queue_size)
        client._open()
        return client

    # Connection.

    greeting_timeout = GREETING_TIMEOUT

    def _greeting_timeout(self) -> float:
        return self.greeting_timeout if self.timeout is None else min(self.greeting_timeout, self.timeout)

    def _open(self) -> None:
        self._disconnect()
        wait = self._greeting_timeout()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(wait)
            sock.connect(self.path)
        except OSError as e:
            sock.close()
            raise ConnectionLost(f"cannot connect to {self.path}: {e.strerror or e}") from e
        self._sock = sock
        self._buffer.clear()
        self._start = self._scanned = 0
        self._pending.clear()
        self._behind = False
        self._abandoned.clear()
        try:
            self.hello = check_hello(self._read(time.monotonic() + wait))
        except TimeoutError:
            self._disconnect()
            raise ConnectionLost(f"{self.path} sent no greeting within {wait:g} s") from None
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
            self._sock.close()
            self._sock = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _read(self, deadline: Optional[float] = None) -> Message:
        """The next line's message; ``deadline`` (monotonic) raises ``TimeoutError`` once passed,
        losing nothing: what was received stays in the buffer for the next read."""
        while True:
            if self._sock is None:
                raise ConnectionLost(self._not_connected())
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                if end - self._start > self.max_line:
                    raise ProtocolError(f"a line from {self.path} is longer than {self.max_line} bytes")
                line = bytes(self._buffer[self._start:end + 1])
                self._start = self._scanned = end + 1
                # Read lines are let go of in bulk: deleting each from the front moved the rest
                # of the buffer once per line.
                if self._start >= 65536 and 2 * self._start >= len(self._buffer):
                    del self._buffer[:self._start]
                    self._scanned -= self._start
                    self._start = 0
                message = parse_line(line)
                if isinstance(message, (Reply, ErrorMessage)) and message.id in self._abandoned:
                    self._abandoned.discard(message.id)  # the late reply to a request that timed out
                    continue
                return message
            self._scanned = len(self._buffer)
            if self._scanned - self._start > self.max_line:
                raise ProtocolError(f"a line from {self.path} is longer than {self.max_line} bytes")
            if deadline is None:
                self._sock.settimeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer from {self.path} within {self.timeout:g} s"
                                       if self.timeout is not None else f"no answer from {self.path}")
                self._sock.settimeout(left)
            try:
                data = self._sock.recv(65536)
            except socket.timeout:
                continue  # the deadline has passed: raised above
            except OSError as e:  # reset, or closed meanwhile
                raise ConnectionLost(f"connection to {self.path} lost: {e.strerror or e}") from e
            if not data:
                raise ConnectionLost(f"{self.path} closed the connection"
                                     + (" in the middle of a line" if len(self._buffer) > self._start else ""))
            self._buffer += data

    def _send(self, data: bytes) -> None:
        if self._sock is None:
            raise ConnectionLost(self._not_connected())
        try:
            self._sock.sendall(data)
        except (ConnectionResetError, BrokenPipeError) as e:
            raise ConnectionLost(f"connection to {self.path} lost: {e.strerror}") from e

    def next_message(self) -> Message:
        """The next message on the connection, whatever it is (stream messages kept while
        waiting for a reply come first), waiting as long as it takes (``timeout`` does not apply).
        `ConnectionLost` once those kept are taken when some had to be dropped (``queue_size``)."""
        if self._pending:
            return self._pending.popleft()
        if self._behind:
            raise ConnectionLost(f"the subscription fell {self.queue_size} messages behind (queue_size)")
        return self._read()

    # Requests.

    def request(self, request: str, **keys: Any) -> Reply:
        """Sends a request (keys as on the wire; None leaves a key out) and returns its reply,
        typed by request name; an ``error`` reply raises `DaemonError`, no reply within
        ``timeout`` ``TimeoutError``.

        A ``subscribe`` replaces the subscription: stream messages of the previous one not yet
        taken, and those that arrive before its reply, are dropped (``goodbye`` and errors are
        kept). A ``goodbye`` in answer to a ``subscribe`` raises `ConnectionLost`."""
        self._next_id += 1
        id = self._next_id
        subscribing = request == "subscribe"
        if subscribing:
            self._pending = deque(m for m in self._pending if not isinstance(m, SUBSCRIPTION_TYPES))
            self._behind = False  # what was dropped belonged to the previous subscription
        self._send(request_line(id, request, keys))
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while True:
            try:
                message = self._read(deadline)
            except TimeoutError:
                self._abandoned.add(id)
                raise
            if isinstance(message, (Reply, ErrorMessage)) and message.id == id:
                return check_reply(message, id, request)
            if subscribing:
                if isinstance(message, SUBSCRIPTION_TYPES):
                    continue
                if isinstance(message, Goodbye):
                    raise GoodbyeToSubscribe(message.reason)
            if len(self._pending) < self.queue_size and not self._behind:
                self._pending.append(message)
            else:
                self._behind = True

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

    def history_all(self, limit: Optional[int] = None, devices: Optional[Sequence[int]] = None) -> History:
        """Every page of a history selection, oldest first: a `History`, a list whose ``missed``
        counts the strokes of the selection that left the daemon's history while it was paged."""
        page = self.history(limit, devices)
        strokes = History(page.strokes, page.missed or 0)
        while page.cursor is not None:
            page = self.history(limit, devices, page.cursor)
            strokes += page.strokes
            strokes.missed += page.missed or 0
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
        yields a `Gap` (``gapTooOld``, ``restarted``, or ``slowClient``: the daemon answered the
        resume by ``goodbye`` ``slowClient``, what it would resume not fitting the client's
        queue limits) and then the new `Snapshot`. It raises `ConnectionLost` when
        ``backoff.attempts`` reconnections in a row fail (a reconnection fails unless the daemon
        greets within `GREETING_TIMEOUT` and answers its ``subscribe``, within ``timeout`` when
        set), or at the first loss without ``reconnect``; `ProtocolError` for what is not the
        protocol, a stream message whose ``seq`` is not above the last one delivered included.
        A new ``subscribe()`` on the same connection replaces the previous one: what that one
        left unread is dropped. A subscription lost within ``backoff.maximum`` seconds of being answered
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
                try:
                    reply = self.request("subscribe", **keys)
                except TimeoutError as e:  # a failed (re)connection, as one that gets no greeting
                    raise ConnectionLost(f"no answer to the subscribe: {e}") from e
                except GoodbyeToSubscribe as e:
                    if e.reason == "slowClient" and "resumeAfter" in keys:
                        state.resume_refused(e.reason)  # a Gap, then subscribe for a snapshot
                    raise
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
                dropped_here = self._behind  # the stream dropped behind this consumer, not by the daemon
                self._disconnect()
                if not reconnect or self._closed:
                    raise
                if failures:  # a reconnection lost before its subscribe was answered
                    time.sleep(retry_delay(backoff, failures, e))
                elif dropped_here:
                    short.forget()
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
