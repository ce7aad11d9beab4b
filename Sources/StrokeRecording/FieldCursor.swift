/// A cursor over one line for field-by-field parsing.
struct FieldCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.end = range.upperBound
    }

    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    mutating func skipSpaces() {
        while position < end && FieldCursor.isSpace(bytes[position]) { position += 1 }
    }

    var atEnd: Bool { position >= end }

    /// True when only white space or a `#` comment is left.
    mutating func atEndIgnoringComment() -> Bool {
        skipSpaces()
        return position >= end || bytes[position] == UInt8(ascii: "#")
    }

    mutating func expect(_ c: UInt8) -> Bool {
        if position < end && bytes[position] == c {
            position += 1
            return true
        }
        return false
    }

    /// A signed decimal integer (leading zeros and `-` allowed, as evemu's `%04d` writes them).
    mutating func decimal() -> Int64? {
        skipSpaces()
        var negative = false
        if position < end && (bytes[position] == UInt8(ascii: "-") || bytes[position] == UInt8(ascii: "+")) {
            negative = bytes[position] == UInt8(ascii: "-")
            position += 1
        }
        let start = position
        var value: Int64 = 0
        while position < end {
            let d = bytes[position] &- UInt8(ascii: "0")
            guard d < 10 else { break }
            if value > (Int64.max - 9) / 10 { return nil }
            value = value &* 10 &+ Int64(d)
            position += 1
        }
        guard position > start else { return nil }
        return negative ? -value : value
    }

    /// An unsigned hexadecimal integer, with or without `0x`.
    mutating func hex() -> UInt64? {
        skipSpaces()
        if position + 1 < end && bytes[position] == UInt8(ascii: "0")
            && (bytes[position + 1] | 0x20) == UInt8(ascii: "x")
        {
            position += 2
        }
        let start = position
        var value: UInt64 = 0
        while position < end {
            let c = bytes[position]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: d = 0xff
            }
            guard d != 0xff else { break }
            if value > UInt64.max >> 4 { return nil }
            value = value << 4 | UInt64(d)
            position += 1
        }
        return position > start ? value : nil
    }

    /// `sec.usec` as microseconds. The fraction may have any number of digits up to 6.
    mutating func timestamp() -> Int64? {
        guard let sec = decimal(), sec >= 0, sec <= RecordingLimits.maxSeconds else { return nil }
        guard expect(UInt8(ascii: ".")) else { return nil }
        var usec: Int64 = 0
        var digits = 0
        while position < end, bytes[position] &- UInt8(ascii: "0") < 10 {
            guard digits < 6 else { return nil }
            usec = usec * 10 + Int64(bytes[position] - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        guard digits > 0 else { return nil }
        for _ in digits..<6 { usec *= 10 }
        return sec * 1_000_000 + usec
    }

    /// The rest of the line as text, for error messages.
    func rest() -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self)
    }
}
