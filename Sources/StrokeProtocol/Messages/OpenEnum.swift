/// A string the protocol names a closed set of values for today, which later versions may extend
/// (docs/protocol.md, "Compatibility rules": clients ignore reasons, flags and codes they do not
/// know). Conforming enums keep an unknown value as `unknown(String)` instead of failing to decode.
public protocol OpenStringEnum: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The value for `rawValue`; `unknown(rawValue)` when it names none of the known ones.
    init(rawValue: String)
    var rawValue: String { get }
}

extension OpenStringEnum {
    public init(from decoder: Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    public var description: String { rawValue }
}
