/// Builds one JSON object as text, keys in the order written. Numbers are formatted
/// deterministically (fixed decimals, trailing zeros trimmed) so transcripts can be compared
/// byte for byte.
public struct JSONWriter: Sendable {
    public private(set) var text: String
    private var first = true

    public init() {
        text = "{"
        text.reserveCapacity(256)
    }

    private mutating func key(_ k: String) {
        if first { first = false } else { text.append(",") }
        text.append("\"")
        text.append(k)
        text.append("\":")
    }

    public mutating func field(_ k: String, _ v: String) {
        key(k)
        JSONWriter.appendQuoted(v, to: &text)
    }

    public mutating func field<I: BinaryInteger>(_ k: String, _ v: I) {
        key(k)
        text.append(String(v))
    }

    public mutating func field<I: BinaryInteger>(_ k: String, _ v: I?) {
        key(k)
        if let v { text.append(String(v)) } else { text.append("null") }
    }

    public mutating func field(_ k: String, _ v: Bool) {
        key(k)
        text.append(v ? "true" : "false")
    }

    public mutating func field(_ k: String, _ v: Double, decimals: Int) {
        key(k)
        text.append(JSONWriter.fixed(v, decimals: decimals))
    }

    public mutating func field(_ k: String, strings: [String]) {
        key(k)
        text.append("[")
        for (i, s) in strings.enumerated() {
            if i > 0 { text.append(",") }
            JSONWriter.appendQuoted(s, to: &text)
        }
        text.append("]")
    }

    /// Inserts already-encoded JSON as the value of `k`.
    public mutating func raw(_ k: String, _ json: String) {
        key(k)
        text.append(json)
    }

    /// The UTF-8 length of the text so far (without the closing brace): where the next key's
    /// comma goes.
    public var byteCount: Int { text.utf8.count }

    /// The finished object.
    public func finish() -> String { text + "}" }

    /// `v` rounded to `decimals` places, without trailing zeros (`0.5`, `12`, `-0.000125`).
    public static func fixed(_ v: Double, decimals: Int) -> String {
        guard v.isFinite else { return "null" }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (v * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(v) }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        var p: Int64 = 1
        for _ in 0..<decimals { p *= 10 }
        let whole = n / p
        var frac = n % p
        var s = negative && n != 0 ? "-" : ""
        s += String(whole)
        if frac != 0 {
            var digits = decimals
            while frac % 10 == 0 {
                frac /= 10
                digits -= 1
            }
            let f = String(frac)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return s
    }

    public static func appendQuoted(_ s: String, to out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }
}
