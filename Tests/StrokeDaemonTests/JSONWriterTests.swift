import StrokeProtocol
import Testing

/// The byte writer against the `String` writer it replaced (kept here as the reference): the
/// same text for every number and string, and value semantics for copies.
@Suite struct JSONWriterTests {
    /// The former `JSONWriter.fixed`, verbatim.
    static func referenceFixed(_ v: Double, decimals: Int) -> String {
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

    /// The former `JSONWriter.appendQuoted`, verbatim.
    static func referenceQuoted(_ s: String) -> String {
        var out = "\""
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
        return out
    }

    @Test func fixedPointNumbersAreTheSameTextAsBefore() {
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1, -1, 0.0000005, -0.0000005, 0.0000004999, 0.123456789, 12.5, 99.995, 1e-7,
            .nan, .infinity, -.infinity, 9e15, -9e15, 8.999e15, 1e16, 123456789.123456, .greatestFiniteMagnitude,
            .leastNonzeroMagnitude, 0.1 + 0.2, 2.675, 1.005, 4503599627370495.5, 2.5, -2.5, 1.5, -1.5, 0.49999999999999994,
            -0.49999999999999994, 8999999999999999, 8999999999999998.5, 0.000000499999, 0.0000025, -0.0000015,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20000 {
            let magnitude = Double.random(in: -8...12, using: &generator)
            values.append(Double.random(in: -1...1, using: &generator) * pow10(magnitude))
        }
        for v in values {
            for decimals in [0, 1, 2, 4, 6] {
                #expect(JSONWriter.fixed(v, decimals: decimals) == Self.referenceFixed(v, decimals: decimals), "\(v) \(decimals)")
                var w = JSONWriter()
                w.field("v", v, decimals: decimals)
                #expect(w.finish() == "{\"v\":\(Self.referenceFixed(v, decimals: decimals))}", "\(v) \(decimals)")
            }
        }
    }

    /// Keys and names are copied without `memmove` in pieces by length (0, 1-3, 4-7, 8-16, more):
    /// every length comes out whole.
    @Test func keysAndNamesOfEveryLengthAreCopiedWhole() {
        let keys: [StaticString] = ["", "a", "ab", "abc", "abcd", "abcde", "abcdef", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghij", "abcdefghijk", "abcdefghijkl", "abcdefghijklm", "abcdefghijklmn", "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "abcdefghijklmnopqr", "abcdefghijklmnopqrs", "abcdefghijklmnopqrst", "normalizedVelocity_and_then_some_more"]
        for k in keys {
            var w = JSONWriter()
            w.field(k, 7)
            w.field("n", name: k)
            let text = k.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
            #expect(w.finish() == "{\"\(text)\":7,\"n\":\"\(text)\"}")
        }
    }

    @Test func integersAreTheirDecimalText() {
        var w = JSONWriter()
        var expected = "{"
        func add<I: BinaryInteger>(_ v: I) {
            w.field("n", v)
            expected += (expected.count > 1 ? "," : "") + "\"n\":\(String(v))"
        }
        for v in [Int64.min, Int64.max, -1, 0, 9, 10, 99, 100, 999_999, 1_000_000, 10_000_000, -10_000_000] { add(v) }
        for v in [UInt64.max, 0, 1, 12_345_678_901_234_567_890] { add(v) }
        for v in [Int32.min, Int32.max, -7] { add(v) }
        for v in [UInt32.max, 0] { add(v) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            add(Int64.random(in: .min ... .max, using: &generator) >> Int64.random(in: 0..<63, using: &generator))
        }
        let none: Int32? = nil
        w.field("n", none)
        expected += ",\"n\":null"
        #expect(w.finish() == expected + "}")
    }

    @Test func stringsAreEscapedOnlyWhereNeeded() {
        let strings = [
            "", "plain", "quote \" and \\ backslash", "tab\tnew\nline\rcr", "\u{0}\u{1}\u{1f}\u{7f}", "é ü 漢字 🖐️", "\u{2028}",
            String(repeating: "x\"", count: 300),
        ]
        for s in strings {
            var w = JSONWriter()
            w.field("s", s)
            #expect(w.finish() == "{\"s\":\(Self.referenceQuoted(s))}")
            var text = ""
            JSONWriter.appendQuoted(s, to: &text)
            #expect(text == Self.referenceQuoted(s))
        }
    }

    @Test func aCopyKeepsItsBytesWhateverTheOriginalWrites() {
        var a = JSONWriter(capacity: 64)
        a.field("first", 1)
        var b = a
        a.field("a", 2)
        b.field("b", 3)
        let c = b
        b.reset()
        b.field("again", true)
        for i in 0..<100 { a.field("grow", i) }  // past the capacity: a copies, b and c keep theirs
        #expect(b.finish() == #"{"again":true}"#)
        #expect(c.finish() == #"{"first":1,"b":3}"#)
        #expect(a.finish().hasPrefix(#"{"first":1,"a":2,"grow":0,"#))
        #expect(a.finish().hasSuffix(#""grow":99}"#))
    }

    @Test func aResetWriterStartsAnEmptyObject() {
        var w = JSONWriter()
        w.field("type", name: "moved")
        w.close()
        #expect(w.text == #"{"type":"moved"}"#)
        w.reset()
        #expect(w.byteCount == 1)
        w.beginArray("flags")
        var count = 0
        w.element("adopted", count: &count)
        w.element("jump", count: &count)
        w.endArray()
        w.raw("raw", "[1,2]")
        w.raw("bytes", bytes: Array("{}".utf8))
        #expect(w.finish() == #"{"flags":["adopted","jump"],"raw":[1,2],"bytes":{}}"#)
    }

    private func pow10(_ e: Double) -> Double {
        var r = 1.0
        var i = Int(e.rounded(.down))
        while i > 0 { r *= 10; i -= 1 }
        while i < 0 { r /= 10; i += 1 }
        return r * (1 + e - e.rounded(.down))
    }
}
