/// One `SYN_REPORT`-terminated packet of events: the unit in which the kernel hands out device
/// state (libinput's `evdev_frame`).
public struct Frame: Hashable, Sendable {
    /// The events of the frame, without the terminating `SYN_REPORT`.
    public var events: [InputEvent]
    /// The time of the terminating `SYN_REPORT`.
    public var time: Timestamp

    @inlinable
    public init(events: [InputEvent], time: Timestamp) {
        self.events = events
        self.time = time
    }
}

/// What the frame assembler hands the decoder.
public enum FrameInput: Hashable, Sendable {
    /// A complete frame.
    case frame(Frame)
    /// `SYN_DROPPED`: events were lost between the previous frame and the next one. The events of
    /// the partial frame and everything up to the next `SYN_REPORT` were discarded.
    case dropped(Timestamp)
}

extension FrameInput {
    /// When the frame (or the drop) happened.
    @inlinable
    public var time: Timestamp {
        switch self {
        case .frame(let f): return f.time
        case .dropped(let t): return t
        }
    }
}
