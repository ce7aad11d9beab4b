"""Typed messages of the strokes wire protocol, version 1 (docs/protocol.md).

Every message the daemon sends is a frozen dataclass with snake_case fields named after the
wire keys (``trackingId`` is ``tracking_id``, ``mmX`` is ``mm_x``). Stroke and hover events carry
their point as ``point``. Optional keys are ``None`` when absent (absent and ``None`` are the same
on the wire: an optional key is never ``null``). Every message keeps the object it was read from
in ``raw``, and ``to_wire()`` gives the wire object back, key for key.

Compatibility (docs/protocol.md, "Compatibility rules"): unknown keys are ignored, an unknown
``type`` becomes ``Unknown``, unknown flags, reasons and codes are kept as strings. A key of the
wrong type, or a required key missing, is a ``ProtocolError`` naming the message and the key.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Callable, ClassVar, Dict, Optional, Tuple, Type, TypeVar, Union

from .errors import ProtocolError

__all__ = [
    "Axis", "Began", "Cancelled", "Device", "DeviceAdded", "DeviceRemoved", "DevicesReply", "Ended",
    "ErrorMessage", "Gesture", "Goodbye", "Hello", "HistoryReply", "Hover", "LiveReply", "Message", "Moved",
    "PingReply", "Point", "ReplayEnded", "Reply", "Snapshot", "StatsReply", "Stroke", "StrokeEvent",
    "SubscribeReply", "Unknown", "UnsubscribeReply", "parse_line", "parse_message", "STREAM_TYPES",
]

# Converters: a value from JSON, checked, and back. `where` names the message and key for errors.


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check(ok: Callable[[Any], bool], what: str) -> Callable[[Any, str], Any]:
    def load(v: Any, where: str) -> Any:
        if not ok(v):
            raise ProtocolError(f"{where} is not {what}: {_excerpt(v)}")
        return v
    return load


_INT = _check(_is_int, "an integer")
_NUM = _check(lambda v: _is_int(v) or isinstance(v, float), "a number")
_STR = _check(lambda v: isinstance(v, str), "a string")
_BOOL = _check(lambda v: isinstance(v, bool), "a boolean")
_INT_OR_NULL = _check(lambda v: v is None or _is_int(v), "an integer or null")
_ID = _check(lambda v: v is None or isinstance(v, str) or _is_int(v), "an integer, a string or null")  # request ids
_OBJECT = _check(lambda v: isinstance(v, dict), "an object")


def _tuple_of(item: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
    def load(v: Any, where: str) -> Any:
        if not isinstance(v, list):
            raise ProtocolError(f"{where} is not an array: {_excerpt(v)}")
        return tuple(item(x, f"{where}[{i}]") for i, x in enumerate(v))
    return load


def _excerpt(v: Any) -> str:
    if isinstance(v, (bytes, bytearray)):
        text = repr(bytes(v[:61]))
    else:
        try:
            text = json.dumps(v)
        except (ValueError, TypeError, RecursionError):  # nested too deep to print
            text = f"<{type(v).__name__}>"
    return text if len(text) <= 60 else text[:60] + "…"


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def _key(load: Callable[[Any, str], Any], *, optional: bool = False, wire: Optional[str] = None,
         flat: bool = False) -> Any:
    """A field read from wire key ``wire`` (default: the camelCase of its name). ``flat``: the
    field is a nested `_Wire` type read from the same object (a stroke event's point)."""
    meta = {"load": load, "wire": wire, "flat": flat}
    return field(default=None, metadata=meta) if optional else field(metadata=meta)


def _raw() -> Any:
    return field(default_factory=dict, repr=False, compare=False)


W = TypeVar("W", bound="_Wire")


class _Wire:
    """Reading and writing a dataclass from and to its wire object."""

    TYPE: ClassVar[Optional[str]] = None

    @classmethod
    def from_wire(cls: Type[W], obj: Dict[str, Any], where: Optional[str] = None) -> W:
        where = where or f"'{cls.TYPE or cls.__name__}'"
        kwargs: Dict[str, Any] = {}
        for f in fields(cls):  # type: ignore[arg-type]
            if f.name == "raw":
                kwargs["raw"] = obj
                continue
            meta = f.metadata
            if meta["flat"]:
                kwargs[f.name] = meta["load"](obj, where)
                continue
            key = meta["wire"] or _camel(f.name)
            if key in obj:
                kwargs[f.name] = meta["load"](obj[key], f"{where} key '{key}'")
            elif f.default is MISSING:
                raise ProtocolError(f"{where} has no '{key}'")
        return cls(**kwargs)

    def __repr__(self) -> str:
        # The keys that are there: a point of a finger has five, not twenty-three.
        shown = (f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)  # type: ignore[arg-type]
                 if f.name != "raw" and (getattr(self, f.name) is not None or f.default is MISSING))
        return f"{type(self).__name__}({', '.join(shown)})"

    def to_wire(self) -> Dict[str, Any]:
        """The wire object: what the daemon sent, without the keys this version does not know."""
        out: Dict[str, Any] = {"type": self.TYPE} if self.TYPE else {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name == "raw":
                continue
            value = getattr(self, f.name)
            if f.metadata["flat"]:
                out.update(value.to_wire())
            elif value is not None or f.default is MISSING:
                out[f.metadata["wire"] or _camel(f.name)] = _dump(value)
        return out


def _dump(v: Any) -> Any:
    if isinstance(v, _Wire):
        return v.to_wire()
    if isinstance(v, tuple):
        return [_dump(x) for x in v]
    return v


def _nested(cls: Type[W]) -> Callable[[Any, str], W]:
    def load(v: Any, where: str) -> W:
        return cls.from_wire(_OBJECT(v, where), where)
    return load


# Points, strokes and devices.


@dataclass(frozen=True, kw_only=True, repr=False)
class Point(_Wire):
    """One sample: the point keys of stroke events and stroke objects ("Stroke events")."""

    time: int = _key(_INT)  #: µs, the kernel timestamp of the frame
    x: int = _key(_INT)  #: raw device units
    y: int = _key(_INT)
    nx: float = _key(_NUM)  #: 0..1 across the axis range (outside it for values beyond the declared range)
    ny: float = _key(_NUM)
    mm_x: Optional[float] = _key(_NUM, optional=True)  #: millimetres, when the device has a resolution
    mm_y: Optional[float] = _key(_NUM, optional=True)
    pressure: Optional[int] = _key(_INT, optional=True)
    touch_major: Optional[int] = _key(_INT, optional=True)
    touch_minor: Optional[int] = _key(_INT, optional=True)
    orientation: Optional[int] = _key(_INT, optional=True)
    tool_type: Optional[str] = _key(_STR, optional=True)  #: "finger", "pen", "eraser", …
    normalized_pressure: Optional[float] = _key(_NUM, optional=True)
    distance: Optional[int] = _key(_INT, optional=True)
    tilt_x: Optional[int] = _key(_INT, optional=True)
    tilt_x_degrees: Optional[float] = _key(_NUM, optional=True)
    tilt_y: Optional[int] = _key(_INT, optional=True)
    tilt_y_degrees: Optional[float] = _key(_NUM, optional=True)
    rotation: Optional[int] = _key(_INT, optional=True)
    wheel: Optional[int] = _key(_INT, optional=True)
    buttons: Optional[Tuple[str, ...]] = _key(_tuple_of(_STR), optional=True)  #: "stylus", "stylus2", …
    tool_id: Optional[int] = _key(_INT, optional=True)
    serial: Optional[int] = _key(_INT, optional=True)


_POINT = _nested(Point)
_FLAT_POINT = lambda obj, where: Point.from_wire(obj, where)  # noqa: E731


@dataclass(frozen=True, kw_only=True, repr=False)
class Stroke(_Wire):
    """A stroke object (snapshots, ``live``, ``history``): every point so far (but
    ``points_omitted`` first ones)."""

    stroke: int = _key(_INT)
    device: int = _key(_INT)
    slot: int = _key(_INT)
    tracking_id: Optional[int] = _key(_INT_OR_NULL)
    state: str = _key(_STR)  #: "inProgress" or "ended"
    points: Tuple[Point, ...] = _key(_tuple_of(_POINT))
    flags: Optional[Tuple[str, ...]] = _key(_tuple_of(_STR), optional=True)
    #: earliest points left out to keep the message within a client's limits (a contact held
    #: for minutes); None when every point is there
    points_omitted: Optional[int] = _key(_INT, optional=True)
    raw: Dict[str, Any] = _raw()

    def to_wire(self) -> Dict[str, Any]:
        out = super().to_wire()
        # Wire order: flags and pointsOmitted before points.
        points = out.pop("points")
        out["points"] = points
        return out


@dataclass(frozen=True, kw_only=True, repr=False)
class Axis(_Wire):
    min: int = _key(_INT)
    max: int = _key(_INT)
    resolution: int = _key(_INT)  #: units per mm, 0 when unknown


@dataclass(frozen=True, kw_only=True, repr=False)
class Device(_Wire):
    """A device object ("Device events and device objects")."""

    device: int = _key(_INT)
    name: str = _key(_STR)
    path: str = _key(_STR)
    kind: str = _key(_STR)  #: touchscreen, touchpad, indirect, penDisplay, tablet, other
    slots: int = _key(_INT)
    bustype: int = _key(_INT)
    vendor: int = _key(_INT)
    product: int = _key(_INT)
    x: Axis = _key(_nested(Axis))
    y: Axis = _key(_nested(Axis))
    axes: Tuple[str, ...] = _key(_tuple_of(_STR))
    tools: Optional[Tuple[str, ...]] = _key(_tuple_of(_STR), optional=True)
    semi_mt: bool = _key(_BOOL, wire="semiMT")
    calibration: Optional[Tuple[float, ...]] = _key(_tuple_of(_NUM), optional=True)
    raw: Dict[str, Any] = _raw()


# Stream messages.


@dataclass(frozen=True, kw_only=True, repr=False)
class StrokeEvent(_Wire):
    """``began``, ``moved``, ``ended`` or ``cancelled``: one step of a stroke's lifecycle
    ``began moved* (ended | cancelled)``. ``seq`` is None in ``strokes replay`` output."""

    stroke: int = _key(_INT)
    device: int = _key(_INT)
    frame: int = _key(_INT)
    slot: int = _key(_INT)
    tracking_id: Optional[int] = _key(_INT_OR_NULL)
    point: Point = _key(_FLAT_POINT, flat=True)
    seq: Optional[int] = _key(_INT, optional=True)
    raw: Dict[str, Any] = _raw()

    @property
    def kind(self) -> str:
        return self.TYPE or ""


@dataclass(frozen=True, kw_only=True, repr=False)
class Began(StrokeEvent):
    TYPE: ClassVar[Optional[str]] = "began"
    #: "adopted", "semiMT", "jump", "noResolution", or names added later
    flags: Optional[Tuple[str, ...]] = _key(_tuple_of(_STR), optional=True)


@dataclass(frozen=True, kw_only=True, repr=False)
class Moved(StrokeEvent):
    TYPE: ClassVar[Optional[str]] = "moved"
    #: this move stands for `merged` earlier moves of the stroke, whose points were dropped
    merged: Optional[int] = _key(_INT, optional=True)


@dataclass(frozen=True, kw_only=True, repr=False)
class Ended(StrokeEvent):
    TYPE: ClassVar[Optional[str]] = "ended"


@dataclass(frozen=True, kw_only=True, repr=False)
class Cancelled(StrokeEvent):
    """The stroke is void. ``reason``: palm, eventsDropped, resync, deviceRemoved, shutdown, pen, replayRestarted, notTouching,
    or one added later."""

    TYPE: ClassVar[Optional[str]] = "cancelled"
    reason: Optional[str] = _key(_STR, optional=True)


@dataclass(frozen=True, kw_only=True, repr=False)
class Hover(_Wire):
    """A tool near the surface, not touching ("Hover events"). Not numbered, not resumable."""

    TYPE: ClassVar[Optional[str]] = "hover"
    phase: str = _key(_STR)  #: proximityIn, motion, proximityOut
    device: int = _key(_INT)
    frame: int = _key(_INT)
    slot: int = _key(_INT)
    tracking_id: Optional[int] = _key(_INT_OR_NULL)
    point: Point = _key(_FLAT_POINT, flat=True)
    merged: Optional[int] = _key(_INT, optional=True)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class Gesture(_Wire):
    """One step of a gesture recognised from one device's strokes ("Gesture events";
    docs/gestures.md). Only when ``gesture`` is subscribed; not numbered, not resumable."""

    TYPE: ClassVar[Optional[str]] = "gesture"
    gesture: int = _key(_INT)  #: the gesture's id, the same on every phase of it
    kind: str = _key(_STR)  #: tap, doubleTap, hold, swipe, edgeSwipe, pinch, rotate
    phase: str = _key(_STR)  #: begin, update, end, cancel
    device: int = _key(_INT)
    time: int = _key(_INT)
    fingers: int = _key(_INT)
    strokes: Tuple[int, ...] = _key(_tuple_of(_INT))
    x: float = _key(_NUM)
    y: float = _key(_NUM)
    nx: float = _key(_NUM)
    ny: float = _key(_NUM)
    mm_x: Optional[float] = _key(_NUM, optional=True)
    mm_y: Optional[float] = _key(_NUM, optional=True)
    duration: int = _key(_INT)
    dnx: Optional[float] = _key(_NUM, optional=True)
    dny: Optional[float] = _key(_NUM, optional=True)
    dmm_x: Optional[float] = _key(_NUM, optional=True)
    dmm_y: Optional[float] = _key(_NUM, optional=True)
    direction: Optional[str] = _key(_STR, optional=True)
    velocity: Optional[float] = _key(_NUM, optional=True)
    normalized_velocity: Optional[float] = _key(_NUM, optional=True)
    edge: Optional[str] = _key(_STR, optional=True)
    scale: Optional[float] = _key(_NUM, optional=True)
    angle: Optional[float] = _key(_NUM, optional=True)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class DeviceAdded(_Wire):
    TYPE: ClassVar[Optional[str]] = "deviceAdded"
    seq: int = _key(_INT)
    device: Device = _key(lambda obj, where: Device.from_wire(obj, where), flat=True)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class DeviceRemoved(_Wire):
    TYPE: ClassVar[Optional[str]] = "deviceRemoved"
    seq: int = _key(_INT)
    device: int = _key(_INT)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class Snapshot(_Wire):
    """The strokes in progress at ``seq``, after a ``subscribe`` (or a resume that was too old)."""

    TYPE: ClassVar[Optional[str]] = "snapshot"
    seq: int = _key(_INT)
    strokes: Tuple[Stroke, ...] = _key(_tuple_of(_nested(Stroke)))
    raw: Dict[str, Any] = _raw()


# Session messages.


@dataclass(frozen=True, kw_only=True, repr=False)
class Hello(_Wire):
    TYPE: ClassVar[Optional[str]] = "hello"
    protocol: int = _key(_INT)
    daemon: str = _key(_STR)
    instance: str = _key(_STR)  #: sequence numbers are comparable only within one instance
    seq: int = _key(_INT)
    features: Tuple[str, ...] = _key(_tuple_of(_STR))
    max_line_length: int = _key(_INT)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class Goodbye(_Wire):
    """The daemon closes: reason shutdown, slowClient, lineTooLong, clientClosed, or later ones."""

    TYPE: ClassVar[Optional[str]] = "goodbye"
    reason: str = _key(_STR)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class ErrorMessage(_Wire):
    """``error``: code invalidJSON, unknownRequest, badArgument, notSubscribed, lineTooLong,
    forbidden, tooManyClients, or later ones."""

    TYPE: ClassVar[Optional[str]] = "error"
    id: Any = _key(_ID)
    error: str = _key(_STR)
    message: str = _key(_STR)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class ReplayEnded(_Wire):
    """The end of a recording in ``strokes replay`` output."""

    TYPE: ClassVar[Optional[str]] = "replayEnded"
    frames: int = _key(_INT)
    still_active: Tuple[int, ...] = _key(_tuple_of(_INT))
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class Unknown(_Wire):
    """A message whose ``type`` this version does not know (to be ignored, or used through raw)."""

    type: str = _key(_STR)
    raw: Dict[str, Any] = _raw()

    def to_wire(self) -> Dict[str, Any]:
        return dict(self.raw)


# Replies. `reply` carries `request`; each known request has its class, others are `Reply`.


@dataclass(frozen=True, kw_only=True, repr=False)
class Reply(_Wire):
    TYPE: ClassVar[Optional[str]] = "reply"
    id: Any = _key(_ID)
    request: str = _key(_STR)
    raw: Dict[str, Any] = _raw()


@dataclass(frozen=True, kw_only=True, repr=False)
class SubscribeReply(Reply):
    seq: int = _key(_INT)
    #: with resumeAfter: whether every message after it follows (False: a snapshot follows)
    resumed: Optional[bool] = _key(_BOOL, optional=True)
    reason: Optional[str] = _key(_STR, optional=True)  #: "gapTooOld" when not resumed


@dataclass(frozen=True, kw_only=True, repr=False)
class UnsubscribeReply(Reply):
    seq: int = _key(_INT)


@dataclass(frozen=True, kw_only=True, repr=False)
class DevicesReply(Reply):
    devices: Tuple[Device, ...] = _key(_tuple_of(_nested(Device)))


@dataclass(frozen=True, kw_only=True, repr=False)
class LiveReply(Reply):
    seq: int = _key(_INT)
    strokes: Tuple[Stroke, ...] = _key(_tuple_of(_nested(Stroke)))


@dataclass(frozen=True, kw_only=True, repr=False)
class HistoryReply(Reply):
    strokes: Tuple[Stroke, ...] = _key(_tuple_of(_nested(Stroke)))
    cursor: Optional[str] = _key(_STR, optional=True)  #: more remain: send it back for the next page
    missed: Optional[int] = _key(_INT, optional=True)  #: strokes that left the history between pages


@dataclass(frozen=True, kw_only=True, repr=False)
class PingReply(Reply):
    pass


@dataclass(frozen=True, kw_only=True, repr=False)
class StatsReply(Reply):
    """``daemon`` and ``you`` as objects (their keys grow with the daemon: see docs/protocol.md)."""

    daemon: Dict[str, Any] = _key(_OBJECT)
    you: Dict[str, Any] = _key(_OBJECT)


_REPLIES: Dict[str, Type[Reply]] = {
    "subscribe": SubscribeReply, "unsubscribe": UnsubscribeReply, "devices": DevicesReply,
    "live": LiveReply, "history": HistoryReply, "ping": PingReply, "stats": StatsReply,
}

Message = Union[Began, Moved, Ended, Cancelled, Hover, Gesture, DeviceAdded, DeviceRemoved, Snapshot, Hello,
                Goodbye, ErrorMessage, ReplayEnded, Reply, Unknown]

_TYPES: Dict[str, Type[_Wire]] = {
    cls.TYPE: cls for cls in (Began, Moved, Ended, Cancelled, Hover, Gesture, DeviceAdded, DeviceRemoved,
                              Snapshot, Hello, Goodbye, ErrorMessage, ReplayEnded)
    if cls.TYPE
}

#: The numbered stream messages (docs/protocol.md, "Sequence numbers").
STREAM_TYPES = (Began, Moved, Ended, Cancelled, DeviceAdded, DeviceRemoved)


def parse_message(obj: Any) -> Message:
    """The typed message for a decoded JSON object; anything else is a `ProtocolError`."""
    try:
        return _parse_message(obj)
    except ProtocolError:
        raise
    except Exception as e:  # whatever shape the object has, reading it fails only this way
        raise ProtocolError(f"a message cannot be read ({type(e).__name__}: {e}): {_excerpt(obj)}") from e


def _parse_message(obj: Any) -> Message:
    if not isinstance(obj, dict):
        raise ProtocolError(f"a message is not a JSON object: {_excerpt(obj)}")
    kind = obj.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(f"a message has no 'type' string: {_excerpt(obj)}")
    if kind == "reply":
        request = obj.get("request")
        cls: Type[_Wire] = _REPLIES.get(request, Reply) if isinstance(request, str) else Reply
        return cls.from_wire(obj, f"'{request}' reply")  # type: ignore[return-value]
    known = _TYPES.get(kind)
    if known is None:
        return Unknown(type=kind, raw=obj)
    return known.from_wire(obj)  # type: ignore[return-value]


def parse_line(line: Union[bytes, str]) -> Message:
    """The typed message for one protocol line (with or without its newline)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError) as e:  # not JSON, not UTF-8, or nested too deep to read
        raise ProtocolError(f"not a JSON line ({e}): {_excerpt(line)}") from None
    return parse_message(obj)
