/// A strict check of a JSON text (RFC 8259) before it is decoded, with a bound on nesting.
///
/// FoundationEssentials' `JSONDecoder` (Swift 6.3) is lenient where the protocol is not: it reads
/// `01`, `1.`, `-`, `"\x"`, raw control characters in strings and trailing commas as JSON. And it
/// traps instead of throwing on a text nested more than 512 levels deep: one request line of 513
/// `[` stopped the daemon. Every text from outside is checked here first.
public enum JSONSyntax {
    /// Levels of arrays and objects a request or server message may nest (requests use 2,
    /// server messages 4).
    public static let depthLimit = 32

    public enum Problem: Error, Equatable, Sendable {
        /// Not JSON at this byte offset (the end of the text when it stops early).
        case invalid(offset: Int)
        /// Arrays and objects nested deeper than the limit.
        case tooDeep
    }

    /// Nil when `bytes` is one JSON value (with whitespace around it; an object, with
    /// `objectOnly`), nested at most `depthLimit` levels; else what is wrong first. UTF-8 validity
    /// is not checked here.
    public static func check(
        _ bytes: some Collection<UInt8>, objectOnly: Bool = false, depthLimit: Int = JSONSyntax.depthLimit
    ) -> Problem? {
        let checked = bytes.withContiguousStorageIfAvailable { check(buffer: $0, objectOnly: objectOnly, depthLimit: depthLimit) }
        return checked ?? Array(bytes).withUnsafeBufferPointer { check(buffer: $0, objectOnly: objectOnly, depthLimit: depthLimit) }
    }

    private static func check(buffer: UnsafeBufferPointer<UInt8>, objectOnly: Bool, depthLimit: Int) -> Problem? {
        var reader = Reader(bytes: buffer, depthLimit: depthLimit)
        do {
            reader.skipWhitespace()
            let start = reader.at
            try reader.value()
            reader.skipWhitespace()
            guard reader.at == buffer.count else { return .invalid(offset: reader.at) }
            // Checked last, so that nesting too deep is said as such whatever the value is.
            if objectOnly, buffer[start] != UInt8(ascii: "{") { return .invalid(offset: start) }
            return nil
        } catch {
            return error
        }
    }

    /// Recursive descent; recursion is bounded by `depthLimit`, checked before each level.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let depthLimit: Int
        var at = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int) {
            self.bytes = bytes
            self.depthLimit = depthLimit
        }

        var invalid: Problem { .invalid(offset: at) }

        func peek() -> UInt8? { at < bytes.count ? bytes[at] : nil }

        mutating func skipWhitespace() {
            while let c = peek(), c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { at += 1 }
        }

        mutating func expect(_ c: UInt8) throws(Problem) {
            guard peek() == c else { throw invalid }
            at += 1
        }

        mutating func value() throws(Problem) {
            skipWhitespace()
            guard let c = peek() else { throw invalid }
            switch c {
            case UInt8(ascii: "{"), UInt8(ascii: "["): try container(closing: c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw invalid
            }
        }

        /// An object (`closing` is `}`: members are `"key": value`) or an array.
        mutating func container(closing: UInt8) throws(Problem) {
            depth += 1
            guard depth <= depthLimit else { throw .tooDeep }
            at += 1
            skipWhitespace()
            if peek() == closing {
                at += 1
                depth -= 1
                return
            }
            while true {
                if closing == UInt8(ascii: "}") {
                    skipWhitespace()
                    try string()
                    skipWhitespace()
                    try expect(UInt8(ascii: ":"))
                }
                try value()
                skipWhitespace()
                guard let c = peek() else { throw invalid }
                at += 1
                if c == closing { break }
                guard c == UInt8(ascii: ",") else {
                    at -= 1
                    throw invalid
                }
            }
            depth -= 1
        }

        mutating func string() throws(Problem) {
            try expect(UInt8(ascii: "\""))
            while let c = peek() {
                switch c {
                case UInt8(ascii: "\""):
                    at += 1
                    return
                case 0..<0x20:
                    throw invalid
                case UInt8(ascii: "\\"):
                    at += 1
                    guard let e = peek() else { throw invalid }
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        at += 1
                    case UInt8(ascii: "u"):
                        at += 1
                        for _ in 0..<4 {
                            guard let h = peek(), h.isHexDigit else { throw invalid }
                            at += 1
                        }
                    default:
                        throw invalid
                    }
                default:
                    at += 1
                }
            }
            throw invalid
        }

        /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
        mutating func number() throws(Problem) {
            if peek() == UInt8(ascii: "-") { at += 1 }
            guard let first = peek(), first.isDigit else { throw invalid }
            at += 1
            if first != UInt8(ascii: "0") { digits() }
            if peek() == UInt8(ascii: ".") {
                at += 1
                guard peek()?.isDigit == true else { throw invalid }
                digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                at += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { at += 1 }
                guard peek()?.isDigit == true else { throw invalid }
                digits()
            }
        }

        mutating func digits() {
            while peek()?.isDigit == true { at += 1 }
        }

        mutating func literal(_ word: StaticString) throws(Problem) {
            let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for c in w {
                guard peek() == c else { throw invalid }
                at += 1
            }
        }
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    fileprivate var isHexDigit: Bool {
        isDigit || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "f")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "F"))
    }
}
