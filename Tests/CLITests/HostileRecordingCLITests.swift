import Foundation
import Testing

/// The crafted recordings of `Tests/StrokeRecordingTests/Hostile` through the binary: refused
/// with `file:line` and exit 65, never a trap or an allocation the size of what a header claims.
@Suite struct HostileRecordingCLITests {
    static func hostile(_ name: String) -> String {
        CLI.repo.appendingPathComponent("Tests/StrokeRecordingTests/Hostile/" + name).path
    }

    static let refused: [(String, Int)] = [
        ("slot-max-int32.evemu", 5), ("slot-max-100000000.evemu", 5), ("slot-max-256.evemu", 5),
        ("slot-max-int32.evtest.txt", 7), ("slot-max-int32.libinput.yml", 12), ("axis-min-above-max.evemu", 6),
        ("axis-min-above-max.libinput.yml", 13), ("mask-beyond-max.evemu", 5), ("long-line.evemu", 10),
        ("control-characters.evemu", 10), ("name-too-long.evemu", 2),
    ]

    @Test(arguments: refused)
    func replaySummaryAndRenderRefuseWithFileAndLine(name: String, line: Int) throws {
        let path = Self.hostile(name)
        for arguments in [["replay", path], ["replay", "--summary", path], ["render", path, "-o", "-"]] {
            let r = try CLI.run(arguments)
            #expect(r.status == 65, "\(arguments): \(r.stderr)")
            #expect(r.stderr.hasPrefix("strokes: \(path):\(line): "), "\(arguments): \(r.stderr)")
            #expect(r.stderr.count < 300 + path.count, "a short excerpt: \(r.stderr.count) characters")
            #expect(r.stderr.split(separator: "\n").count == 1)
            #expect(!r.stderr.contains("\u{1b}"))
            #expect(r.stdout.isEmpty, "nothing partial for a malformed header")
        }
    }

    /// A device name with terminal escapes is printed with them escaped (`describe` showed them
    /// raw: a crafted recording could rewrite the terminal), and a UTF-8 byte order mark before
    /// an evemu file's first line is skipped (it was refused at line 1; the evtest reader already
    /// skipped it). Both from an adversary's notes.
    @Test func aDeviceNameWithEscapesAndAByteOrderMarkAreHarmless() throws {
        let fixture = try String(contentsOfFile: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), encoding: .utf8)
        let crafted = "\u{feff}" + fixture.replacingOccurrences(
            of: "N: Atmel maXTouch Touchscreen", with: "N: Atmel \u{1b}]0;owned\u{07}\u{1b}[2J\u{9b}31m")
        #expect(crafted != "\u{feff}" + fixture)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-escapes-\(getpid()).evemu").path
        try crafted.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let described = try CLI.run(["describe", path])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(!described.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x9b })
        #expect(described.stdout.contains(#"Atmel \u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m"#), "\(described.stdout)")
        let replayed = try CLI.run(["replay", "--summary", path])
        let plain = try CLI.run(["replay", "--summary", CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu")])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(!replayed.stdout.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x9b })
        // The same recording, but for the name.
        let lines = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("device 1:") } }
        #expect(lines(replayed.stdout) == lines(plain.stdout) && replayed.stdout.contains(#"\u{1b}[2J"#))
    }

    /// A device name with a double quote and a backslash is printed with them escaped, so the
    /// quoted name ends where it ends (printed raw, where the name ended and what followed it
    /// were the recording's to forge). From the third adversary round's notes.
    /// A pen sharing a multitouch device's node (wacom_w8001 before Linux 4.7) is not decoded, but
    /// not lost silently either (an adversary's finding): `describe` names its tools, `--summary`
    /// counts its tool events, and the fingers' strokes are those of the device without it.
    @Test func aPenOnAMultitouchDevicesNodeIsNamedAndCounted() throws {
        let file = CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        let fixture = try String(contentsOfFile: file, encoding: .utf8)
        let crafted = fixture
            .replacingOccurrences(of: "B: 01 00 04 00 00 00 00 00 00", with: "B: 01 01 04 00 00 00 00 00 00")
            .replacingOccurrences(
                of: "E: 0.000001 0003 002f 0000", with: "E: 0.000001 0001 0140 0001\nE: 0.000001 0003 002f 0000")
        #expect(crafted.split(separator: "\n").count == fixture.split(separator: "\n").count + 1)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-mt-pen-\(getpid()).evemu").path
        try crafted.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let described = try CLI.run(["describe", path]).stdout
        #expect(described.contains("  pen: BTN_TOOL_PEN beside the touch: this pen is not decoded"), "\(described)")
        #expect(!(try CLI.run(["describe", file]).stdout.contains("  pen:")))
        let summary = try CLI.run(["replay", "--summary", path])
        #expect(summary.status == 0 && summary.stdout.contains("device 1 penToolsIgnored: 1"), "\(summary.stdout)")
        #expect(try CLI.run(["replay", path]).stdout == CLI.run(["replay", file]).stdout)
    }

    @Test func aDeviceNameWithAQuoteIsPrintedUnambiguously() throws {
        let fixture = try String(contentsOfFile: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), encoding: .utf8)
        let crafted = fixture.replacingOccurrences(of: "N: Atmel maXTouch Touchscreen", with: #"N: Atmel" (pen, 1 slots) \"#)
        #expect(crafted != fixture)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-quote-\(getpid()).evemu").path
        try crafted.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let described = try CLI.run(["describe", path])
        #expect(described.status == 0, "\(described.stderr)")
        #expect(described.stdout.contains(#"device 1: "Atmel\" (pen, 1 slots) \\""#), "\(described.stdout)")
        let summary = try CLI.run(["replay", "--summary", path])
        #expect(summary.stdout.contains(#"device 1: "Atmel\" (pen, 1 slots) \\" (touchscreen, "#), "\(summary.stdout)")
    }

    @Test func daemonReplayRefusesAHostileHeaderWithoutTrapping() throws {
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-hostile-\(getpid()).sock").path
        defer { try? FileManager.default.removeItem(atPath: socket) }
        let path = Self.hostile("slot-max-int32.evemu")
        let r = try CLI.run(["daemon", "--socket", socket, "--replay", path])
        #expect(r.status != 0 && r.status < 128, "an error exit, not a signal: \(r.status)")
        #expect(r.stderr.contains("\(path):5: ABS_MT_SLOT max 2147483647"), "\(r.stderr)")
    }

    /// A FIFO as the daemon's recording is refused at once: it was opened on the event loop,
    /// which blocked in open(2) and neither served nor stopped (an adversary's finding).
    @Test func daemonReplayRefusesAFIFO() throws {
        let directory = NSTemporaryDirectory() + "strokes-fifo-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/rec.evemu"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try CLI.run(["daemon", "--config", "/dev/null", "--socket", directory + "/s.sock", "--replay", fifo])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("\(fifo): not a regular file"), "\(r.stderr)")
    }

    @Test func zeroWidthAxesReplayAndRender() throws {
        let path = Self.hostile("axis-zero-width.evemu")
        let replay = try CLI.run(["replay", path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.hasPrefix(#"{"type":"began""#))
        let render = try CLI.run(["render", path, "-o", "-"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("<svg"))
    }

    /// Found by an adversarial run: a range whose width does not fit in 32 bits trapped (exit 132)
    /// in the geometry, `describe` and the panel.
    @Test func axesSpanningAllOfInt32ReplayDescribeAndRender() throws {
        let path = Self.hostile("axis-full-int32-range.evemu")
        let replay = try CLI.run(["replay", path])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stdout.contains(#""x":2147483647,"y":-1073741825,"nx":1,"ny":0"#), "\(replay.stdout)")
        for command in [["replay", "--summary", path], ["describe", path], ["render", path, "-o", "-"]] {
            let r = try CLI.run(command)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
    }

    @Test func aMalformedEventLineDeepInTheStreamKeepsWhatWasPrintedAndEndsWithoutReplayEnded() throws {
        var text = try String(contentsOfFile: Self.hostile("axis-zero-width.evemu"), encoding: .utf8)
        text += "E: 0.030000 0003 0039 0002\nE: 0.030000 0000 0000 0000\nE: 0.040000 zz\n"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-deep-\(getpid()).evemu").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("strokes: \(path):20: expected 'E: <sec>.<usec>"), "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"type":"began""#) == true, "events before the bad line were printed")
        #expect(lines.contains { $0.hasPrefix(#"{"type":"ended""#) })
        #expect(!r.stdout.contains("replayEnded"), "an incomplete replay does not say it ended")
        let summary = try CLI.run(["replay", "--summary", path])
        #expect(summary.status == 65)
        #expect(summary.stdout.isEmpty, "a summary is printed only for a whole recording")
    }

    @Test func aPastedEvtestLogIsReadWithOneWarningAndTheSkippedLinesInTheSummary() throws {
        let path = Self.hostile("pasted.evtest.txt")
        let r = try CLI.run(["replay", "--summary", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\nstrokes: 1\n"))
        #expect(r.stdout.contains("\nskipped lines: 5 (first: line 1)\n"), "\(r.stdout)")
        #expect(r.stderr == "strokes: warning: \(path):1: skipped 5 lines that are not part of the recording (this is the first)\n")
        let events = try CLI.run(["replay", path])
        #expect(events.status == 0)
        #expect(events.stderr.split(separator: "\n").count == 1, "warned once")
        #expect(events.stdout.split(separator: "\n").count == 4, "began, moved, ended, replayEnded")
    }

    @Test func aMalformedEventLineInAPastedLogStillStops() throws {
        let path = Self.hostile("pasted-malformed-event.evtest.txt")
        let r = try CLI.run(["replay", "--summary", path])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("strokes: \(path):39: expected 'Event: time"), "\(r.stderr)")
    }

    @Test func olderEvtestNamesReplayLikeCurrentOnes() throws {
        let old = try CLI.run(["replay", Self.hostile("old-names.evtest.txt")])
        let current = try CLI.run(["replay", Self.hostile("pasted.evtest.txt")])
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.stdout == current.stdout)
        #expect(old.stderr.isEmpty)
        let single = try CLI.run(["replay", "--summary", Self.hostile("old-names-single-touch.evtest.txt")])
        #expect(single.status == 0, "\(single.stderr)")
        #expect(single.stdout.contains("\nstrokes: 1\n"), "\(single.stdout)")
    }
}
