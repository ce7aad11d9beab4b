/// A stroke with its polyline, as in `snapshot`, `live` and `history` (docs/protocol.md,
/// "Stroke objects").
public struct StrokeObject: Codable, Sendable, Hashable {
    public var stroke: UInt64
    public var device: UInt32
    public var slot: Int32
    /// `null` on the wire when unknown, as on stroke events.
    public var trackingId: Int32?
    public var state: State
    /// With state `cancelled`: why.
    public var reason: StrokeMessage.CancelReason?
    /// As on `began`, when not empty.
    public var flags: [StrokeMessage.Flag]?
    /// Its earliest points left out to keep a snapshot, `live` reply or history page within a
    /// client's limits (a contact held for minutes); nil when every point is there.
    public var pointsOmitted: Int?
    /// Every point so far (but the `pointsOmitted` first), oldest first.
    public var points: [PointObject]

    public init(
        stroke: UInt64, device: UInt32, slot: Int32, trackingId: Int32?, state: State,
        reason: StrokeMessage.CancelReason? = nil, flags: [StrokeMessage.Flag]? = nil, pointsOmitted: Int? = nil,
        points: [PointObject]
    ) {
        self.stroke = stroke
        self.device = device
        self.slot = slot
        self.trackingId = trackingId
        self.state = state
        self.reason = reason
        self.flags = flags
        self.pointsOmitted = pointsOmitted
        self.points = points
    }

    public enum State: OpenStringEnum {
        case inProgress, ended, cancelled
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "inProgress": self = .inProgress
            case "ended": self = .ended
            case "cancelled": self = .cancelled
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .inProgress: "inProgress"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .unknown(let name): name
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        stroke = try c.decode(UInt64.self, forKey: "stroke")
        device = try c.decode(UInt32.self, forKey: "device")
        slot = try c.decode(Int32.self, forKey: "slot")
        trackingId = try c.decodeIfPresent(Int32.self, forKey: "trackingId")
        state = try c.decode(State.self, forKey: "state")
        reason = try c.decodeIfPresent(StrokeMessage.CancelReason.self, forKey: "reason")
        flags = try c.decodeIfPresent([StrokeMessage.Flag].self, forKey: "flags")
        pointsOmitted = try c.decodeIfPresent(Int.self, forKey: "pointsOmitted")
        points = try c.decode([PointObject].self, forKey: "points")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode(stroke, forKey: "stroke")
        try c.encode(device, forKey: "device")
        try c.encode(slot, forKey: "slot")
        try c.encodeNullable(trackingId, forKey: "trackingId")
        try c.encode(state, forKey: "state")
        try c.encodeIfPresent(reason, forKey: "reason")
        try c.encodeIfPresent(flags, forKey: "flags")
        try c.encodeIfPresent(pointsOmitted, forKey: "pointsOmitted")
        try c.encode(points, forKey: "points")
    }
}
