"""The asyncio client: the same API as `Client`, with ``await`` and ``async for``."""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Dict, Optional, Sequence

from .client import (DEFAULT_MAX_LINE, GREETING_TIMEOUT, SUBSCRIPTION_TYPES, GoodbyeToSubscribe, History, check_hello,
                     check_reply, request_line, retry_delay)
from .errors import ConnectionLost, DaemonError, ProtocolError
from .messages import (DevicesReply, ErrorMessage, Goodbye, Hello, HistoryReply, LiveReply, Message,
                       PingReply, Reply, StatsReply, Stroke, SubscribeReply, parse_line)
from .stream import Backoff, Event, ShortSessions, StreamState, default_socket_path

__all__ = ["AsyncClient"]


class AsyncClient:
    """A connection to the daemon for asyncio.

    >>> async with await AsyncClient.connect() as client:
    ...     async for event in client.subscribe():
    ...         print(event)

    One reader task reads the socket: replies go to the request awaiting them, everything else
    to a queue of ``queue_size`` messages that `subscribe` takes from. A consumer that lets the
    queue fill has fallen behind, as the daemon's slow clients do: the reader drops what follows
    (it goes on reading, so requests made meanwhile get their replies) and, once the consumer has
    taken what the queue holds, the subscription reconnects and resumes after it (a `Gap` when
    the daemon no longer holds what was dropped), rather than growing this process's memory.
    Whatever ends the reader (a lost connection, a `ProtocolError`) is raised to the iterator and
    to every request awaiting a reply. A ``subscribe`` drops the previous subscription's stream
    messages not yet taken and those that arrive before its reply, as `Client.request` does.
    A (re)connection that gets no greeting within `GREETING_TIMEOUT` (5 s) fails
    (`ConnectionLost`).
    """

    greeting_timeout = GREETING_TIMEOUT

    def __init__(self, path: str, *, max_line: int = DEFAULT_MAX_LINE, queue_size: int = 8192):
        self.path = path
        self.max_line = max_line
        self.queue_size = queue_size
        self.hello: Optional[Hello] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._reader_task: Optional[asyncio.Task[None]] = None
        self._queue: asyncio.Queue[Any] = asyncio.Queue(queue_size)
        self._behind = False  # the queue was full: stream messages are dropped until a reconnection
        self._ended: Optional[Exception] = None  # what ended the reader task
        self._waiting: Dict[int, asyncio.Future[Message]] = {}
        self._subscribing: Optional[int] = None  # a subscribe awaiting its reply: stream messages before it are dropped
        self._next_id = 0
        self._closed = False  # by the caller: a subscription ends instead of reconnecting

    @classmethod
    async def connect(cls, path: Optional[str] = None, *, max_line: int = DEFAULT_MAX_LINE,
                      queue_size: int = 8192) -> "AsyncClient":
        """Connects and reads the greeting (``client.hello``), waiting at most `GREETING_TIMEOUT`."""
        client = cls(path or default_socket_path(), max_line=max_line, queue_size=queue_size)
        await client._open()
        return client

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _open(self) -> None:
        await self._disconnect()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_unix_connection(self.path, limit=self.max_line + 1), self.greeting_timeout)
        except (OSError, asyncio.TimeoutError) as e:
            raise ConnectionLost(f"cannot connect to {self.path}: {getattr(e, 'strerror', None) or e or 'timed out'}") from e
        self._writer = writer
        try:
            self.hello = check_hello(await asyncio.wait_for(self._read(reader), self.greeting_timeout))
        except asyncio.TimeoutError:
            await self._disconnect()
            raise ConnectionLost(f"{self.path} sent no greeting within {self.greeting_timeout:g} s") from None
        except BaseException:
            await self._disconnect()
            raise
        self._queue = asyncio.Queue(self.queue_size)
        self._behind, self._ended, self._subscribing = False, None, None
        self._reader_task = asyncio.create_task(self._read_loop(reader))

    async def close(self) -> None:
        """Closes the connection; a subscription being iterated ends with `ConnectionLost`."""
        self._closed = True
        await self._disconnect()

    async def _disconnect(self) -> None:
        task, writer = self._reader_task, self._writer
        self._reader_task = self._writer = None
        if task is not None:
            task.cancel()
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                pass
        self._fail_waiting(ConnectionLost("the connection was closed"))

    async def _read(self, reader: asyncio.StreamReader) -> Message:
        try:
            line = await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError:
            raise ProtocolError(f"a line from {self.path} is longer than {self.max_line} bytes") from None
        except asyncio.IncompleteReadError as e:
            raise ConnectionLost(f"{self.path} closed the connection" + (" in the middle of a line" if e.partial else "")) from None
        except (ConnectionResetError, BrokenPipeError) as e:
            raise ConnectionLost(f"connection to {self.path} lost: {e.strerror}") from e
        return parse_line(line)

    async def _read_loop(self, reader: asyncio.StreamReader) -> None:
        """Reads until the connection ends, never waiting for the consumer; the end (a lost
        connection, a protocol error, any exception) is queued last and fails the requests."""
        try:
            while True:
                message = await self._read(reader)
                if self._subscribing is not None:
                    if isinstance(message, (Reply, ErrorMessage)) and message.id == self._subscribing:
                        self._subscribing = None  # what follows is the new subscription's
                    elif isinstance(message, SUBSCRIPTION_TYPES):
                        continue  # the previous subscription's
                    elif isinstance(message, Goodbye) and self._subscribing in self._waiting:
                        future = self._waiting.pop(self._subscribing)
                        self._subscribing = None
                        if not future.done():
                            future.set_exception(GoodbyeToSubscribe(message.reason))
                        continue
                if isinstance(message, (Reply, ErrorMessage)) and message.id in self._waiting:
                    future = self._waiting.pop(message.id)
                    if not future.done():
                        future.set_result(message)
                    continue
                if not self._behind:
                    try:
                        self._queue.put_nowait(message)
                    except asyncio.QueueFull:
                        self._behind = True
        except Exception as e:
            self._ended = e
            self._fail_waiting(e)
            if not self._behind:
                try:
                    self._queue.put_nowait(e)  # wakes a consumer waiting on an empty queue
                except asyncio.QueueFull:
                    pass  # next_message raises it once the queue is empty

    def _fail_waiting(self, error: Exception) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(error)
        self._waiting.clear()

    def _drain(self) -> list:
        items = []
        while not self._queue.empty():
            items.append(self._queue.get_nowait())
        return items

    async def next_message(self) -> Message:
        """The next message that is not a reply to a request."""
        if self._queue.empty():
            if self._behind:
                raise ConnectionLost(f"the subscription fell {self.queue_size} messages behind (queue_size)")
            if self._ended is not None:
                raise self._ended
            if self._reader_task is None:
                raise ConnectionLost("the client was closed" if self._closed else "not connected")
        item = await self._queue.get()
        if isinstance(item, Exception):
            raise item
        return item

    async def request(self, request: str, **keys: Any) -> Reply:
        """Sends a request (keys as on the wire; None leaves a key out) and returns its reply;
        an ``error`` reply raises `DaemonError`."""
        if self._writer is None:
            raise ConnectionLost("the client was closed" if self._closed else "not connected")
        if self._ended is not None:  # no reader left to read the reply
            raise self._ended
        self._next_id += 1
        id = self._next_id
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._waiting[id] = future
        if request == "subscribe":
            kept = [m for m in self._drain() if not isinstance(m, SUBSCRIPTION_TYPES)]
            self._behind = False  # what was dropped belonged to the previous subscription
            for item in kept:
                self._queue.put_nowait(item)
            self._subscribing = id
        try:
            self._writer.write(request_line(id, request, keys))
            await self._writer.drain()
        except (ConnectionResetError, BrokenPipeError) as e:
            self._waiting.pop(id, None)
            if future.done():
                future.exception()  # the reader failed it first: retrieved, so asyncio does not warn
            raise ConnectionLost(f"connection to {self.path} lost: {e.strerror}") from e
        return check_reply(await future, id, request)

    async def ping(self) -> PingReply:
        return await self.request("ping")  # type: ignore[return-value]

    async def devices(self) -> DevicesReply:
        return await self.request("devices")  # type: ignore[return-value]

    async def live(self, devices: Optional[Sequence[int]] = None) -> LiveReply:
        return await self.request("live", devices=devices)  # type: ignore[return-value]

    async def stats(self) -> StatsReply:
        return await self.request("stats")  # type: ignore[return-value]

    async def history(self, limit: Optional[int] = None, devices: Optional[Sequence[int]] = None,
                      cursor: Optional[str] = None) -> HistoryReply:
        return await self.request("history", limit=limit, devices=devices, cursor=cursor)  # type: ignore[return-value]

    async def history_all(self, limit: Optional[int] = None, devices: Optional[Sequence[int]] = None) -> History:
        """As `Client.history_all`: a list with ``missed``."""
        page = await self.history(limit, devices)
        strokes = History(page.strokes, page.missed or 0)
        while page.cursor is not None:
            page = await self.history(limit, devices, page.cursor)
            strokes += page.strokes
            strokes.missed += page.missed or 0
        return strokes

    async def subscribe(self, devices: Optional[Sequence[int]] = None, events: Optional[Sequence[str]] = None, *,
                        resume_after: Optional[int] = None, reconnect: bool = True,
                        backoff: Backoff = Backoff()) -> AsyncIterator[Event]:
        """As `Client.subscribe`: a snapshot, then the stream; reconnects and resumes, yielding
        a `Gap` where the stream cannot continue."""
        state = StreamState(devices, events, resume_after)
        failures = 0  # reconnections in a row that did not get the subscription back
        short = ShortSessions(backoff)
        while True:
            if self._writer is None:
                # Outside the try: giving up ends the subscription.
                failures = await self._reconnect(backoff, failures)
            try:
                if self.hello is None:
                    raise ConnectionLost("the client was closed" if self._closed else "not connected")
                keys, gap = state.subscribe_keys(self.hello)
                if gap:
                    yield gap
                try:
                    reply = await self.request("subscribe", **keys)
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
                    message = await self.next_message()
                    for out in state.on_message(message):
                        yield out
                    if isinstance(message, Goodbye):
                        raise ConnectionLost(f"the daemon said goodbye ({message.reason})")
            except ConnectionLost as e:
                dropped_here = self._behind  # the stream dropped behind this consumer, not by the daemon
                await self._disconnect()
                if not reconnect or self._closed:
                    raise
                if failures:  # a reconnection lost before its subscribe was answered
                    await asyncio.sleep(retry_delay(backoff, failures, e))
                elif dropped_here:
                    short.forget()
                elif wait := short.lost(time.monotonic()):
                    await asyncio.sleep(wait)

    async def _reconnect(self, backoff: Backoff, failures: int) -> int:
        """As `Client._reconnect`."""
        while True:
            if self._closed:
                raise ConnectionLost("the client was closed")
            try:
                await self._open()
                return failures + 1
            except ConnectionLost as e:
                error: Exception = e
            except DaemonError as e:
                if e.code != "tooManyClients":
                    raise
                error = e
            failures += 1
            await asyncio.sleep(retry_delay(backoff, failures, error))
