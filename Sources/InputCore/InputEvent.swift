/// One kernel `struct input_event`: a timestamp, a type, a code and a value.
public struct InputEvent: Hashable, Sendable {
    public var time: Timestamp
    public var type: EventType
    public var code: UInt16
    public var value: Int32

    @inlinable
    public init(time: Timestamp, type: EventType, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// `EV_SYN / SYN_REPORT`: the end of a frame.
    @inlinable
    public var isSynReport: Bool { type == .syn && code == SynCode.report }

    /// `SYN_REPORT` or `SYN_DROPPED`: after either, no earlier event waits to be applied.
    @inlinable
    public var closesFrame: Bool { type == .syn && (code == SynCode.report || code == SynCode.dropped) }

    /// `EV_SYN / SYN_DROPPED`: the kernel's buffer overflowed and events were lost.
    @inlinable
    public var isSynDropped: Bool { type == .syn && code == SynCode.dropped }
}
