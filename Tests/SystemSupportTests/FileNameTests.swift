import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// File names that are not UTF-8 kept byte for byte in a `String` (`FileName`).
@Suite struct FileNameTests {
    @Test func validUTF8IsDecodedAsItIs() {
        for text in ["", "plain.evemu", "café-touch.evemu", "日本語/ストローク", "🖊️ pen", "\u{10FF7F}"] {
            #expect(FileName.decode(Array(text.utf8)) == text)
            #expect(FileName.bytes(text) == Array(text.utf8))
        }
    }

    @Test func eachByteThatIsNotUTF8StandsForItself() {
        // Latin-1 "café": the é alone is not UTF-8.
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xe9]
        let name = FileName.decode(latin1)
        #expect(name.unicodeScalars.map(\.value) == [0x63, 0x61, 0x66, 0x10FFE9])
        #expect(FileName.bytes(name) == latin1)
        // Overlong, surrogate, past U+10FFFF, a truncated sequence, a stray continuation byte: each
        // byte on its own, where Swift's decoding makes them U+FFFD (and so another name).
        let invalid: [[UInt8]] = [[0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xe2, 0x82], [0x80], [0xff, 0x41]]
        for bytes in invalid {
            let decoded = FileName.decode(bytes)
            #expect(decoded.unicodeScalars.allSatisfy { $0.isASCII || FileName.escapes.contains($0.value) }, "\(bytes)")
            #expect(FileName.bytes(decoded) == bytes)
        }
    }

    @Test func everyByteStringRoundTrips() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...12, using: &generator)
            // Bytes 1...255 (a name holds no NUL), biased towards UTF-8's lead and continuation bytes.
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? UInt8.random(in: 0x80...0xff, using: &generator) : UInt8.random(in: 1...0xff, using: &generator)
            }
            #expect(FileName.bytes(FileName.decode(bytes)) == bytes, "\(bytes)")
        }
        // The escapes themselves, written as valid UTF-8 (U+10FFE9 is F4 8F BF A9): escaped byte by
        // byte, so they come back as those four bytes, not as 0xE9.
        let literal = Array("\u{10FFE9}".utf8)
        #expect(FileName.bytes(FileName.decode(literal)) == literal)
    }

    @Test func systemCallsGetTheOriginalBytes() throws {
        var template = Array("/tmp/strokes-names-XXXXXX".utf8CString)
        let dir = String(cString: try #require(mkdtemp(&template)))
        let name = FileName.decode(Array((dir + "/caf").utf8) + [0xe9])
        defer {
            FileName.withCString(name) { _ = unlink($0) }
            rmdir(dir)
        }
        try Files.writeAtomically(Array("text".utf8), to: name)
        #expect(try Files.contents(of: name) == Array("text".utf8))
        #expect(try Files.names(in: dir) == [FileName.decode([0x63, 0x61, 0x66, 0xe9])])
        FileName.withCString(name) { #expect(strlen($0) == dir.utf8.count + 5) }
        #expect(access(dir + "/café", F_OK) != 0, "not the UTF-8 name")
    }
}
