/// A daemon-unique stroke identifier. Never reused within a daemon's (or a replay's) lifetime,
/// unlike kernel tracking IDs, which are per device, 16-bit, and wrap.
public struct StrokeID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (a: StrokeID, b: StrokeID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }

    /// The key of the hover of a device's slot: what a `hover` event carries instead of a stroke,
    /// so that a slow client's queue can merge hover motion like moves. Counted down from the
    /// top of the range, it never meets a stroke id.
    public static func hover(device: DeviceID, slot: Int32) -> StrokeID {
        StrokeID(rawValue: UInt64.max - (UInt64(device.rawValue) << 32 | UInt64(UInt32(bitPattern: slot))))
    }
}

/// A daemon-assigned device identifier, never reused while the daemon runs.
public struct DeviceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// Which in-progress stroke a contact belongs to: (device, slot, tracking ID). The slot keeps
/// apart contacts whose tracking ID is unknown (adopted) and survives a device that, against the
/// protocol, gives two slots the same tracking ID.
public struct StrokeKey: Hashable, Sendable {
    public var device: DeviceID
    public var slot: Int32
    public var trackingID: Int32?

    public init(device: DeviceID, slot: Int32, trackingID: Int32?) {
        self.device = device
        self.slot = slot
        self.trackingID = trackingID
    }
}
