"""Client for the strokes multitouch daemon (docs/protocol.md), standard library only.

- `Client` (blocking) and `AsyncClient` (asyncio): ``connect(path)``, typed requests
  (``devices()``, ``live()``, ``history()``, ``stats()``, ``ping()``, or ``request(name, **keys)``),
  and ``subscribe(...)``, an iterator of typed messages that reconnects and resumes.
- `messages`: a frozen dataclass per protocol message; `parse_line` reads one line.
- A `Gap` in a subscription says what could not be resumed; a `Snapshot` follows it.
"""

from .aio import AsyncClient
from .client import DEFAULT_MAX_LINE, GREETING_TIMEOUT, PROTOCOL, Client, History
from .errors import ConnectionLost, DaemonError, ProtocolError, StrokesError
from .messages import (STREAM_TYPES, Axis, Began, Cancelled, Device, DeviceAdded, DeviceRemoved,
                       DevicesReply, Ended, ErrorMessage, Gesture, Goodbye, Hello, HistoryReply, Hover,
                       LiveReply, Message, Moved, PingReply, Point, ReplayEnded, Reply, Snapshot,
                       StatsReply, Stroke, StrokeEvent, SubscribeReply, Unknown, UnsubscribeReply,
                       parse_line, parse_message)
from .stream import Backoff, Event, Gap, StreamState, default_socket_path

__version__ = "0.2.0"

__all__ = [
    "AsyncClient", "Axis", "Backoff", "Began", "Cancelled", "Client", "ConnectionLost", "DaemonError",
    "DEFAULT_MAX_LINE", "Device", "DeviceAdded", "DeviceRemoved", "DevicesReply", "Ended", "ErrorMessage",
    "Event", "Gap", "Gesture", "Goodbye", "GREETING_TIMEOUT", "Hello", "History", "HistoryReply", "Hover", "LiveReply", "Message", "Moved",
    "PingReply", "Point", "PROTOCOL", "ProtocolError", "ReplayEnded", "Reply", "Snapshot", "StatsReply",
    "StreamState", "Stroke", "StrokeEvent", "StrokesError", "STREAM_TYPES", "SubscribeReply", "Unknown",
    "UnsubscribeReply", "default_socket_path", "parse_line", "parse_message",
]
