/// Groups a stream of `input_event`s into frames, and applies the kernel's `SYN_DROPPED` rule:
/// "ignore all events up to and including next SYN_REPORT" (`event-codes.rst`).
///
/// Pure: feed it events, collect what it returns.
public struct FrameAssembler: Sendable {
    // Inlinable, with its state: it runs once per event, in the caller's read loop.
    @usableFromInline var pending: [InputEvent] = []
    @usableFromInline var discarding = false
    /// `pending` went out in the last frame: empty it before the next event. Emptying it then,
    /// when the caller has usually let go of that frame, reuses its storage instead of copying.
    @usableFromInline var handedOut = false

    public init() {}

    /// Feeds one event; returns a frame input when the event completes one.
    @inlinable
    public mutating func feed(_ event: InputEvent) -> FrameInput? {
        if handedOut {
            handedOut = false
            pending.removeAll(keepingCapacity: true)
        }
        if event.type == .syn {
            switch event.code {
            case SynCode.report:
                if discarding {
                    discarding = false
                    pending.removeAll(keepingCapacity: true)
                    return nil
                }
                handedOut = true
                return .frame(Frame(events: pending, time: event.time))
            case SynCode.dropped:
                pending.removeAll(keepingCapacity: true)
                discarding = true
                return .dropped(event.time)
            default:
                break
            }
        }
        if !discarding { pending.append(event) }
        return nil
    }

    /// Events after the last `SYN_REPORT`: a truncated last frame.
    public var unterminatedEvents: [InputEvent] { handedOut ? [] : pending }
}
