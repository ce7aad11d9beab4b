import StrokeTracker

/// A subscription's `events` as one flag per message type (`Broadcast.typeName`), made once when
/// the client subscribes, so that filtering a message for every client of every frame hashes no
/// string. Without `events`: every type but `hover` and `gesture`, which a client must ask for.
struct TypeFilter {
    private var began, moved, ended, cancelled, hover, deviceAdded, deviceRemoved, gesture: Bool

    init(_ events: Set<String>?) {
        func has(_ name: String) -> Bool { events?.contains(name) ?? (name != "hover" && name != "gesture") }
        began = has(StrokeEvent.Kind.began.name)
        moved = has(StrokeEvent.Kind.moved.name)
        ended = has(StrokeEvent.Kind.ended.name)
        cancelled = has("cancelled")
        hover = has("hover")
        deviceAdded = has("deviceAdded")
        deviceRemoved = has("deviceRemoved")
        gesture = has("gesture")
    }

    /// Whether the subscription asked for `gesture`.
    var gestures: Bool { gesture }

    /// Whether `b`'s type is one the subscription asked for.
    func passes(_ b: Broadcast) -> Bool {
        switch b.kind {
        case .stroke(let e):
            switch e.kind {
            case .began: return began
            case .moved: return moved
            case .ended: return ended
            case .cancelled: return cancelled
            case .hover: return hover
            }
        case .deviceAdded: return deviceAdded
        case .deviceRemoved: return deviceRemoved
        case .gesture: return gesture
        }
    }
}
