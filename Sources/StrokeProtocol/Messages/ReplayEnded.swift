/// The line `strokes replay` ends each recording's output with (docs/protocol.md, "Replay-only
/// messages"); the daemon never sends it.
public struct ReplayEnded: Codable, Sendable, Hashable {
    /// Frames processed.
    public var frames: UInt64
    /// Strokes still in progress when the recording ended: no `ended` or `cancelled` follows.
    public var stillActive: [UInt64]

    public init(frames: UInt64, stillActive: [UInt64]) {
        self.frames = frames
        self.stillActive = stillActive
    }

    private enum CodingKeys: String, CodingKey { case type, frames, stillActive }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        frames = try c.decode(UInt64.self, forKey: .frames)
        stillActive = try c.decode([UInt64].self, forKey: .stillActive)
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("replayEnded", forKey: .type)
        try c.encode(frames, forKey: .frames)
        try c.encode(stillActive, forKey: .stillActive)
    }
}
