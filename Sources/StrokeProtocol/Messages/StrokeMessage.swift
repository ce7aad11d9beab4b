/// A stroke event: `began`, `moved`, `ended` or `cancelled` (docs/protocol.md, "Stroke events"),
/// as the daemon streams it and `strokes replay` prints it.
public struct StrokeMessage: Codable, Sendable, Hashable {
    public var kind: Kind
    /// The stream sequence number; nil in `strokes replay` output.
    public var seq: UInt64?
    /// On a `moved` a slow client gets: how many earlier moves of the stroke it stands for.
    public var merged: Int?
    /// The stroke id, unique for the daemon's lifetime.
    public var stroke: UInt64
    public var device: UInt32
    /// The device frame (`SYN_REPORT`) that produced the event, from 1 per device.
    public var frame: UInt64
    public var slot: Int32
    /// The kernel tracking ID; nil for single-touch devices and adopted strokes whose ID was never
    /// seen (on the wire: `null`, never absent).
    public var trackingId: Int32?
    public var point: PointObject
    /// `began` only, when not empty.
    public var flags: [Flag]?
    /// `cancelled` only.
    public var reason: CancelReason?

    public init(
        kind: Kind, seq: UInt64? = nil, merged: Int? = nil, stroke: UInt64, device: UInt32, frame: UInt64, slot: Int32,
        trackingId: Int32?, point: PointObject, flags: [Flag]? = nil, reason: CancelReason? = nil
    ) {
        self.kind = kind
        self.seq = seq
        self.merged = merged
        self.stroke = stroke
        self.device = device
        self.frame = frame
        self.slot = slot
        self.trackingId = trackingId
        self.point = point
        self.flags = flags
        self.reason = reason
    }

    /// The event's `type`.
    public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
        case began, moved, ended, cancelled
    }

    /// A `began`'s `flags`.
    public enum Flag: OpenStringEnum {
        /// The contact was already down when strokes started watching (or after lost events).
        case adopted
        /// The device reports a bounding box, not fingers.
        case semiMT
        /// The stroke begins where a contact jumped to (docs/decoder.md, "Touch jumps").
        case jump
        /// No millimetres for this stroke.
        case noResolution
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "adopted": self = .adopted
            case "semiMT": self = .semiMT
            case "jump": self = .jump
            case "noResolution": self = .noResolution
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .adopted: "adopted"
            case .semiMT: "semiMT"
            case .jump: "jump"
            case .noResolution: "noResolution"
            case .unknown(let name): name
            }
        }
    }

    /// Why a stroke was `cancelled` (docs/protocol.md, "Cancel reasons").
    public enum CancelReason: OpenStringEnum {
        case palm, eventsDropped, resync, deviceRemoved, shutdown, pen, replayRestarted, notTouching
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "palm": self = .palm
            case "eventsDropped": self = .eventsDropped
            case "resync": self = .resync
            case "deviceRemoved": self = .deviceRemoved
            case "shutdown": self = .shutdown
            case "replayRestarted": self = .replayRestarted
            case "pen": self = .pen
            case "notTouching": self = .notTouching
            default: self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .palm: "palm"
            case .eventsDropped: "eventsDropped"
            case .resync: "resync"
            case .deviceRemoved: "deviceRemoved"
            case .shutdown: "shutdown"
            case .replayRestarted: "replayRestarted"
            case .pen: "pen"
            case .notTouching: "notTouching"
            case .unknown(let name): name
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        let type = try c.messageType()
        guard let kind = Kind(rawValue: type) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c, debugDescription: "\(type) is not a stroke event")
        }
        self.kind = kind
        seq = try c.decodeIfPresent(UInt64.self, forKey: "seq")
        merged = try c.decodeIfPresent(Int.self, forKey: "merged")
        stroke = try c.decode(UInt64.self, forKey: "stroke")
        device = try c.decode(UInt32.self, forKey: "device")
        frame = try c.decode(UInt64.self, forKey: "frame")
        slot = try c.decode(Int32.self, forKey: "slot")
        trackingId = try c.decodeIfPresent(Int32.self, forKey: "trackingId")
        point = try PointObject(from: decoder)
        flags = try c.decodeIfPresent([Flag].self, forKey: "flags")
        reason = try c.decodeIfPresent(CancelReason.self, forKey: "reason")
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode(kind.rawValue, forKey: .type)
        try c.encodeIfPresent(seq, forKey: "seq")
        try c.encodeIfPresent(merged, forKey: "merged")
        try c.encode(stroke, forKey: "stroke")
        try c.encode(device, forKey: "device")
        try c.encode(frame, forKey: "frame")
        try c.encode(slot, forKey: "slot")
        try c.encodeNullable(trackingId, forKey: "trackingId")
        try point.encode(to: encoder)
        try c.encodeIfPresent(flags, forKey: "flags")
        try c.encodeIfPresent(reason, forKey: "reason")
    }
}

extension KeyedEncodingContainer where Key == MessageKey {
    /// `value`, or an explicit `null` (the protocol's `trackingId` and `id`, never absent).
    mutating func encodeNullable<T: Encodable>(_ value: T?, forKey key: MessageKey) throws {
        if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }
}
