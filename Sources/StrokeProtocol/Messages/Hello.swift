/// The daemon's first line (docs/protocol.md, "Session").
public struct Hello: Codable, Sendable, Hashable {
    /// The protocol version (`ProtocolVersion.current`).
    public var `protocol`: Int
    /// `"strokes VERSION"`.
    public var daemon: String
    /// Random per daemon start: sequence numbers compare only within one instance.
    public var instance: String
    /// The last sequence number handed out so far.
    public var seq: UInt64
    /// What the daemon supports (`subscribe`, `resume`, `hover`, …); names are only ever added.
    public var features: [String]
    /// The longest request line accepted, in bytes.
    public var maxLineLength: Int

    public init(protocol: Int, daemon: String, instance: String, seq: UInt64, features: [String], maxLineLength: Int) {
        self.protocol = `protocol`
        self.daemon = daemon
        self.instance = instance
        self.seq = seq
        self.features = features
        self.maxLineLength = maxLineLength
    }

    private enum CodingKeys: String, CodingKey { case type, `protocol`, daemon, instance, seq, features, maxLineLength }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.protocol = try c.decode(Int.self, forKey: .protocol)
        daemon = try c.decode(String.self, forKey: .daemon)
        instance = try c.decode(String.self, forKey: .instance)
        seq = try c.decode(UInt64.self, forKey: .seq)
        features = try c.decode([String].self, forKey: .features)
        maxLineLength = try c.decode(Int.self, forKey: .maxLineLength)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("hello", forKey: .type)
        try c.encode(self.protocol, forKey: .protocol)
        try c.encode(daemon, forKey: .daemon)
        try c.encode(instance, forKey: .instance)
        try c.encode(seq, forKey: .seq)
        try c.encode(features, forKey: .features)
        try c.encode(maxLineLength, forKey: .maxLineLength)
    }
}
