/// A `hover` event: a tool near the surface, not touching (docs/protocol.md, "Hover events").
/// Not numbered: it has no `seq`, and no stroke id.
public struct HoverMessage: Codable, Sendable, Hashable {
    public var phase: Phase
    /// On a `motion` a slow client gets: how many earlier motions of the slot it stands for.
    public var merged: Int?
    public var device: UInt32
    public var frame: UInt64
    public var slot: Int32
    /// As on stroke events: nil is `null` on the wire.
    public var trackingId: Int32?
    public var point: PointObject

    public init(
        phase: Phase, merged: Int? = nil, device: UInt32, frame: UInt64, slot: Int32, trackingId: Int32?, point: PointObject
    ) {
        self.phase = phase
        self.merged = merged
        self.device = device
        self.frame = frame
        self.slot = slot
        self.trackingId = trackingId
        self.point = point
    }

    public enum Phase: OpenStringEnum {
        /// The tool came near.
        case proximityIn
        /// It moved, or a button changed, while near. A `motion` for a device and slot not known to
        /// be near is a proximity in (a client that joined late).
        case motion
        /// It left.
        case proximityOut
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "proximityIn": self = .proximityIn
            case "motion": self = .motion
            case "proximityOut": self = .proximityOut
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .proximityIn: "proximityIn"
            case .motion: "motion"
            case .proximityOut: "proximityOut"
            case .unknown(let name): name
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        phase = try c.decode(Phase.self, forKey: "phase")
        merged = try c.decodeIfPresent(Int.self, forKey: "merged")
        device = try c.decode(UInt32.self, forKey: "device")
        frame = try c.decode(UInt64.self, forKey: "frame")
        slot = try c.decode(Int32.self, forKey: "slot")
        trackingId = try c.decodeIfPresent(Int32.self, forKey: "trackingId")
        point = try PointObject(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode("hover", forKey: .type)
        try c.encode(phase, forKey: "phase")
        try c.encodeIfPresent(merged, forKey: "merged")
        try c.encode(device, forKey: "device")
        try c.encode(frame, forKey: "frame")
        try c.encode(slot, forKey: "slot")
        try c.encodeNullable(trackingId, forKey: "trackingId")
        try point.encode(to: encoder)
    }
}
