/// A frame whose events are read in place: from the caller's buffer of events as read, or from
/// the assembler's own buffer for a frame that spanned two reads. Valid only during the call it
/// is handed to.
public struct FrameView {
    /// The events of the frame, without the terminating `SYN_REPORT`.
    public let events: UnsafeBufferPointer<InputEvent>
    /// The time of the terminating `SYN_REPORT`.
    public let time: Timestamp

    @inlinable
    public init(events: UnsafeBufferPointer<InputEvent>, time: Timestamp) {
        self.events = events
        self.time = time
    }
}

/// What `FrameAssembler.feed(_:_:)` hands its body: `FrameInput` with the frame in place.
public enum FrameViewInput {
    case frame(FrameView)
    case dropped(Timestamp)

    /// When the frame (or the drop) happened.
    @inlinable
    public var time: Timestamp {
        switch self {
        case .frame(let f): return f.time
        case .dropped(let t): return t
        }
    }
}

extension FrameAssembler {
    /// Feeds a buffer of events (what one read gave) and calls `body` with each frame input they
    /// complete, in order, as `feed(_:)` would return them one event at a time. A frame that lies
    /// whole in `events` is handed out in place, not copied; only a frame begun in an earlier
    /// buffer, or not finished in this one, goes through the assembler's own buffer.
    @inlinable
    public mutating func feed(_ events: UnsafeBufferPointer<InputEvent>, _ body: (FrameViewInput) -> Void) {
        if handedOut {
            handedOut = false
            pending.removeAll(keepingCapacity: true)
        }
        var start = 0
        for i in events.indices where events[i].type == .syn {
            let event = events[i]
            switch event.code {
            case SynCode.report:
                if discarding {
                    discarding = false
                } else if pending.isEmpty {
                    body(.frame(FrameView(events: UnsafeBufferPointer(rebasing: events[start..<i]), time: event.time)))
                } else {
                    pending.append(contentsOf: events[start..<i])
                    pending.withUnsafeBufferPointer { body(.frame(FrameView(events: $0, time: event.time))) }
                }
                if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
                start = i + 1
            case SynCode.dropped:
                if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
                discarding = true
                body(.dropped(event.time))
                start = i + 1
            default:
                break
            }
        }
        if !discarding && start < events.count { pending.append(contentsOf: events[start...]) }
    }
}
