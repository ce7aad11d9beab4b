"""Resuming a subscription: the bookkeeping both clients share, without I/O.

A `StreamState` remembers the daemon instance and the last sequence number delivered. The
transport asks it what to put in each ``subscribe`` (``resumeAfter``), tells it each greeting,
reply and message, and delivers what it returns: a message is never delivered twice, and what
cannot be resumed is announced by a `Gap` before the snapshot that replaces it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

from .errors import ProtocolError
from .messages import STREAM_TYPES, Hello, Message, Moved, Snapshot, SubscribeReply

__all__ = ["Backoff", "Gap", "ShortSessions", "StreamState", "default_socket_path"]


@dataclass(frozen=True, kw_only=True)
class Gap:
    """Not a wire message: the stream could not continue after ``last_seq``.

    ``reason`` is ``gapTooOld`` (the daemon no longer holds every message after ``last_seq``:
    its ``resume`` buffer is smaller than what was missed), ``restarted`` (a new daemon
    instance answered, whose sequence numbers start over) or ``slowClient`` (the daemon answered
    the ``subscribe`` resuming after ``last_seq`` with ``goodbye`` ``slowClient`` alone: the
    messages to resume do not fit the client's queue limits, docs/protocol.md; the client
    subscribes again without resuming). What happened in between is lost; a
    `Snapshot` of the strokes in progress follows at once. Strokes the client knew of that are
    not in it ended (or were cancelled) meanwhile.
    """

    reason: str
    last_seq: Optional[int]
    instance: Optional[str]  #: the instance ``last_seq`` belonged to


Event = Union[Message, Gap]


@dataclass(frozen=True, kw_only=True)
class Backoff:
    """Reconnect delays: ``initial`` seconds, times ``factor`` after each failure, at most
    ``maximum``; ``attempts`` failed attempts in a row give up (None: never)."""

    initial: float = 0.05
    factor: float = 2.0
    maximum: float = 2.0
    attempts: Optional[int] = None

    def delay(self, failures: int) -> float:
        return min(self.maximum, self.initial * self.factor ** max(0, failures - 1))


class ShortSessions:
    """Subscriptions in a row the daemon ended within ``backoff.maximum`` seconds of their
    ``subscribe`` being answered. Each such loss waits ``backoff.delay`` of their count before reconnecting, so
    a daemon that answers and then closes every time (a crash loop, a proxy) is not reconnected
    to in a busy loop; a subscription that lasted longer starts the count over. They do not count
    towards ``backoff.attempts``: each reconnection got its subscription back. Times are the
    caller's monotonic clock."""

    def __init__(self, backoff: Backoff):
        self.backoff = backoff
        self.count = 0
        self._since: Optional[float] = None

    def subscribed(self, now: float) -> None:
        """The ``subscribe`` was answered at ``now``."""
        self._since = now

    def forget(self) -> None:
        """The connection was dropped on this side (a consumer behind): not a short session."""
        self._since = None

    def lost(self, now: float) -> float:
        """The connection was lost at ``now``: the seconds to wait before reconnecting."""
        since, self._since = self._since, None
        if since is None:
            return 0.0
        if now - since >= self.backoff.maximum:
            self.count = 0
            return 0.0
        self.count += 1
        return self.backoff.delay(self.count)


class StreamState:
    """One subscription's position in the daemon's stream, across connections."""

    def __init__(self, devices: Optional[Sequence[int]] = None, events: Optional[Sequence[str]] = None,
                 resume_after: Optional[int] = None):
        self.devices = list(devices) if devices is not None else None
        self.events = list(events) if events is not None else None
        self.instance: Optional[str] = None
        #: The last sequence number delivered (or the snapshot's): where a resume starts.
        self.last_seq: Optional[int] = resume_after
        #: Sequence numbers neither received nor counted in a `merged` so far. Without filters it
        #: is 0 whenever no merged move is pending (docs/protocol.md, "Sequence numbers").
        self.unaccounted = 0
        self._gap: Optional[Gap] = None  # to deliver before the next subscribe (`resume_refused`)

    def subscribe_keys(self, hello: Hello) -> tuple[Dict[str, Any], Optional[Gap]]:
        """The keys of the ``subscribe`` to send after ``hello``, and the gap to deliver first
        when the daemon is a new instance."""
        gap, self._gap = self._gap, None
        if self.instance is not None and hello.instance != self.instance:
            if gap is None:  # else already announced: the snapshot follows either way
                gap = Gap(reason="restarted", last_seq=self.last_seq, instance=self.instance)
            self.last_seq = None
        self.instance = hello.instance
        keys: Dict[str, Any] = {}
        if self.devices is not None:
            keys["devices"] = self.devices
        if self.events is not None:
            keys["events"] = self.events
        if self.last_seq is not None:
            keys["resumeAfter"] = self.last_seq
        return keys, gap

    def on_reply(self, reply: SubscribeReply) -> Optional[Gap]:
        """The gap to deliver when the daemon could not resume (a snapshot follows)."""
        if reply.resumed is False:
            return Gap(reason=reply.reason or "gapTooOld", last_seq=self.last_seq, instance=self.instance)
        return None

    def resume_refused(self, reason: str) -> None:
        """The daemon answered a ``subscribe`` with ``resumeAfter`` by ``goodbye`` ``reason``
        alone (``slowClient``: what it would resume does not fit the client's queue limits).
        Resuming again would be cut the same way: the next ``subscribe`` asks for a snapshot,
        after a `Gap` with that reason (`subscribe_keys` returns it)."""
        if self.last_seq is not None:
            self._gap = Gap(reason=reason, last_seq=self.last_seq, instance=self.instance)
            self.last_seq = None

    def on_message(self, message: Message) -> List[Message]:
        """What to deliver of ``message``. A stream message whose sequence number is not above
        the last one delivered is not the protocol (the daemon's only increase, and a resume
        starts after the last delivered): `ProtocolError`."""
        if isinstance(message, Snapshot):
            self.last_seq = message.seq
            self.unaccounted = 0
            return [message]
        if isinstance(message, STREAM_TYPES):
            seq = message.seq
            if seq is None:  # a stroke event without seq is not from a daemon's stream
                return [message]
            if self.last_seq is not None:
                if seq <= self.last_seq:
                    raise ProtocolError(f"a '{message.raw.get('type')}' with seq {seq} after seq {self.last_seq}: "
                                        "sequence numbers only increase")
                merged = message.merged if isinstance(message, Moved) and message.merged else 0
                self.unaccounted += seq - self.last_seq - 1 - merged
            self.last_seq = seq
        return [message]


def default_socket_path() -> str:
    """Where the daemon listens (README, "Install and run"): ``$STROKES_SOCKET``, else
    ``/run/strokes/strokes.sock`` when it exists, else ``$XDG_RUNTIME_DIR/strokes.sock``."""
    if os.environ.get("STROKES_SOCKET"):
        return os.environ["STROKES_SOCKET"]
    system = "/run/strokes/strokes.sock"
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if os.path.exists(system) or not runtime:
        return system
    return os.path.join(runtime, "strokes.sock")
