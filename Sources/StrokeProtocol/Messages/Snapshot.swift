/// What follows a `subscribe` reply (unless it resumed): the strokes in progress at `seq`, with
/// every point so far; the stream continues above `seq` (docs/protocol.md, "Subscribing,
/// snapshots and resuming").
public struct Snapshot: Codable, Sendable, Hashable {
    public var seq: UInt64
    public var strokes: [StrokeObject]

    public init(seq: UInt64, strokes: [StrokeObject]) {
        self.seq = seq
        self.strokes = strokes
    }

    private enum CodingKeys: String, CodingKey { case type, seq, strokes }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seq = try c.decode(UInt64.self, forKey: .seq)
        strokes = try c.decode([StrokeObject].self, forKey: .strokes)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("snapshot", forKey: .type)
        try c.encode(seq, forKey: .seq)
        try c.encode(strokes, forKey: .strokes)
    }
}
