/// How deeply a JSON text nests arrays and objects, counted without parsing it.
///
/// FoundationEssentials' `JSONDecoder` (Swift 6.3) traps instead of throwing on a text nested
/// more than 512 levels deep (`JSONScanner` builds the error's source location out of bounds):
/// one request line of 513 `[` stopped the daemon. Every text from outside is measured first.
public enum JSONNesting {
    /// Levels a request or server message may nest (requests use 2, server messages 4).
    public static let limit = 32

    /// Whether `bytes` nests arrays and objects deeper than `limit`. Brackets inside strings do
    /// not count. Up to the first place a text stops being JSON the count is the decoder's depth;
    /// past it the decoder stops, so what follows does not matter (a stray `]` is not counted
    /// below 0, which can only count deeper).
    public static func exceeds(_ limit: Int = JSONNesting.limit, in bytes: some Sequence<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for b in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { return true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth > 0 { depth -= 1 }
            default:
                break
            }
        }
        return false
    }
}
