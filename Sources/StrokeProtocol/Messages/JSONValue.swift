/// Any JSON value, kept as it came: what a message this client does not know holds
/// (`ServerMessage.unknown`), and a way to compare two lines as JSON rather than as text.
public enum JSONValue: Codable, Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// An integer above `Int64.max`.
    case unsigned(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        // Each failed attempt throws, and throwing is what this costs: the likeliest kinds in a
        // protocol line (numbers, then strings) come first.
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let d = try? c.decode(Double.self) {
            // An integer above Int64.max, exactly.
            if d >= 0x1p63, let u = try? c.decode(UInt64.self) { self = .unsigned(u) } else { self = .double(d) }
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let o = try? c.decode([String: JSONValue].self) {
            self = .object(o)
        } else {
            self = .array(try c.decode([JSONValue].self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .integer(let i): try c.encode(i)
        case .unsigned(let u): try c.encode(u)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }

    /// The value of `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }

    /// Equal as JSON: objects whatever their key order, and numbers by value (`1` equals `1.0`).
    public func sameJSON(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { value.sameJSON(as: $0) } ?? false }
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameJSON(as: $1) }
        default:
            if let x = number, let y = other.number { return x == y }
            return self == other
        }
    }

    /// Where `other` differs from this value as JSON (`sameJSON`): the keys lost or gained, or the
    /// first value that changed, with its path. Nil when they are the same.
    public func difference(from other: JSONValue, path: String = "") -> String? {
        guard !sameJSON(as: other) else { return nil }
        switch (self, other) {
        case (.object(let x), .object(let y)):
            let lost = Set(x.keys).subtracting(y.keys).sorted()
            let gained = Set(y.keys).subtracting(x.keys).sorted()
            if !lost.isEmpty || !gained.isEmpty {
                return "at \(path.isEmpty ? "top" : path): lost \(lost), gained \(gained)"
            }
            for key in x.keys.sorted() {
                if let d = x[key]!.difference(from: y[key]!, path: path + "." + key) { return d }
            }
        case (.array(let x), .array(let y)) where x.count == y.count:
            for (i, (p, q)) in zip(x, y).enumerated() {
                if let d = p.difference(from: q, path: path + "[\(i)]") { return d }
            }
        default: break
        }
        return "at \(path.isEmpty ? "top" : path): \(self) became \(other)"
    }

    private var number: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .unsigned(let u): return Double(u)
        case .double(let d): return d
        case .null, .bool, .string, .array, .object: return nil
        }
    }
}
