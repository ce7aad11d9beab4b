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

    /// What a slow client's queue may merge this message with (`ClientQueue`): a `moved` with
    /// the stroke's earlier `moved`. Nil for everything that is never merged.
    public var mergeKey: MergeKey? {
        if case .stroke(let e) = kind, e.kind == .moved { return .moved(e.stroke) }
        return nil
    }

    /// The merge key this message ends: after a stroke's `ended` or `cancelled` no `moved` of it
    /// follows.
    public var finishedKey: MergeKey? {
        if case .stroke(let e) = kind, e.kind != .moved, e.kind != .began { return .moved(e.stroke) }
        return nil
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
