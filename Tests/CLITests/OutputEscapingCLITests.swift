import Foundation
import Testing

/// What a recording's metadata and values reach: found by the seventh black-box round
/// (Tests/adversary/REPORT.md), each pinned here through the binary.
@Suite struct OutputEscapingCLITests {
    /// A pressure axis whose values span all of Int32 (-1 to 2^31 - 1; values outside absinfo are
    /// kept) trapped `render` (and the daemon's `GET /render.svg`) computing stroke widths.
    @Test func strokeWidthsFromPressuresSpanningInt32DoNotTrap() throws {
        let path = HostileRecordingCLITests.hostile("pressure-full-int32-span.evemu")
        let r = try CLI.run(["render", path, "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("<path"))
    }

    /// U+FFFE and U+FFFF are not XML characters: a device name holding them made an SVG no XML
    /// parser (nor rsvg-convert, so no PNG) accepts. Left out of the SVG; `describe` escapes the
    /// bidirectional override after them.
    @Test func noncharactersInANameAreLeftOutOfTheSVG() throws {
        let path = HostileRecordingCLITests.hostile("name-noncharacters.evemu")
        let r = try CLI.run(["render", path, "-o", "-"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF })
        #expect(r.stdout.contains("Crafted  Touch screen"), "\(r.stdout.prefix(2000))")
        let described = try CLI.run(["describe", path])
        #expect(described.status == 0)
        #expect(described.stdout.contains(#"\u{202e}"#), "\(described.stdout)")
        #expect(!described.stdout.unicodeScalars.contains("\u{202e}"))
    }

    /// A file name is the user's, but printed on `describe`'s and `replay --summary`'s `file:`
    /// lines and in every error it must not carry a terminal escape or a line break raw.
    @Test func aFileNameWithControlCharactersIsPrintedEscaped() throws {
        let dir = NSTemporaryDirectory() + "strokes-names-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/a\u{1b}]0;x\u{7}\nstrokes: forged.evemu"
        try FileManager.default.copyItem(atPath: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), toPath: path)
        for arguments in [["describe", path], ["replay", "--summary", path, path]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(!r.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 }, "\(arguments)")
            #expect(r.stdout.contains(#"a\u{1b}]0;x\u{7}\u{a}strokes: forged.evemu"#), "\(arguments): \(r.stdout)")
        }
        let missing = try CLI.run(["replay", dir + "/\u{1b}[2Jnone.evemu"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains(#"\u{1b}[2Jnone.evemu"#) && !missing.stderr.contains("\u{1b}"), "\(missing.stderr)")
    }

    /// A C1 control (U+009B is CSI in one byte) or a bidirectional override in a malformed line
    /// is escaped in the error's excerpt, as C0 controls were.
    @Test func anErrorExcerptEscapesC1ControlsAndBidiOverrides() throws {
        let dir = NSTemporaryDirectory() + "strokes-c1-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/c1.evemu"
        try "# EVEMU 1.3\nN: x\nI: 0003 \u{9b}2J \u{202e}0002 0001\n".write(toFile: path, atomically: true, encoding: .utf8)
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.contains(#"\u{9b}2J \u{202e}0002"#), "\(r.stderr)")
        #expect(!r.stderr.unicodeScalars.contains { $0.value == 0x9b || $0.value == 0x202e })
    }
}
