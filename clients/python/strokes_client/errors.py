"""The exceptions the client raises."""

from __future__ import annotations

from typing import Any, Optional


class StrokesError(Exception):
    """Base class of everything this package raises."""


class ProtocolError(StrokesError):
    """The peer sent something that is not the strokes protocol: not JSON, not an object, no
    ``type``, a key of the wrong type, a line longer than the client accepts, or a greeting that
    is not ``hello``. Not retried: a server that speaks something else will go on doing so."""


class ConnectionLost(StrokesError):
    """The connection closed (or could not be made) and was not, or could no longer be,
    re-established."""


class DaemonError(StrokesError):
    """The daemon answered a request with an ``error`` message (docs/protocol.md, "Errors").

    ``code`` is the protocol's code (``badArgument``, ``forbidden``, ...), ``message`` its text.
    """

    def __init__(self, code: str, message: str, id: Any = None, raw: Optional[dict] = None):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.id = id
        self.raw = raw if raw is not None else {}
