import InputCore
import StrokeTracker

/// One stream message for every subscriber: a stroke event or a device event, numbered and
/// encoded once.
public struct Broadcast: Sendable {
    public enum Kind: Sendable {
        case stroke(StrokeEvent)
        case deviceAdded
        case deviceRemoved
    }

    /// Daemon-wide sequence number: 1, 2, 3, … with no gaps, per daemon instance.
    public var seq: UInt64
    public var kind: Kind
    public var device: DeviceID
    /// The protocol line, without the newline.
    public var line: String

    /// The message's `type` on the wire, which subscriptions filter on.
    public var typeName: String {
        switch kind {
        case .stroke(let e): return e.kind.name
        case .deviceAdded: return "deviceAdded"
        case .deviceRemoved: return "deviceRemoved"
        }
    }

    /// The stroke whose consecutive moves may be merged, for a `moved`; for hover motion, the
    /// slot's hover key (`StrokeID.hover`), so that slow clients get hover merged like moves.
    public var mergeableStroke: StrokeID? {
        if case .stroke(let e) = kind, e.kind == .moved || e.kind == .hover(.motion) { return e.stroke }
        return nil
    }

    /// A `hover` event: sent only to clients that ask for `hover` in `subscribe.events`.
    public var isHover: Bool {
        if case .stroke(let e) = kind, case .hover = e.kind { return true }
        return false
    }
}

/// What the daemon knows of a device it serves.
public struct DeviceInfo: Sendable {
    public var id: DeviceID
    /// `/dev/input/eventN`, or `replay:FILE` for a served recording.
    public var path: String
    public var description: DeviceDescription
    public var geometry: DeviceGeometry
}
