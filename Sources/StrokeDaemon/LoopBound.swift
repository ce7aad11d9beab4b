import NIOCore

/// A value only its event loop may touch, like `NIOLoopBoundBox`, but read in place: the box's
/// getter returns a copy, and copying `Hub` (or the daemon's `State`) retains and releases each
/// of its buffers, several times per frame on the hot path for a field or two.
final class LoopBound<Value>: @unchecked Sendable {
    let loop: EventLoop
    private var _value: Value

    /// Made on any thread; `value` only on `loop` (touching it elsewhere traps).
    init(_ value: sending Value, loop: EventLoop) {
        self.loop = loop
        _value = value
    }

    var value: Value {
        _read {
            loop.preconditionInEventLoop()
            yield _value
        }
        _modify {
            loop.preconditionInEventLoop()
            yield &_value
        }
    }
}
