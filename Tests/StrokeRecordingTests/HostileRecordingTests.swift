import Foundation
import InputCore
import StrokeRecording
import Testing

/// Crafted recordings in `Hostile/`: headers that declare too much or the impossible, lines too
/// long, pasted logs. Each is read through the readers here and through the CLI in CLITests.
enum Hostile {
    static let directory = Bundle.module.url(forResource: "Hostile", withExtension: nil)!
    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The files a reader refuses: name, line, what the message says.
    static let refused: [(String, Int, String)] = [
        ("slot-max-int32.evemu", 5, "ABS_MT_SLOT max 2147483647 declares 2147483648 slots; strokes reads at most 256"),
        ("slot-max-100000000.evemu", 5, "ABS_MT_SLOT max 100000000"),
        ("slot-max-256.evemu", 5, "ABS_MT_SLOT max 256 declares 257 slots"),
        ("slot-max-int32.evtest.txt", 7, "ABS_MT_SLOT max 2147483647"),
        ("slot-max-int32.libinput.yml", 12, "ABS_MT_SLOT max 2147483647"),
        ("axis-min-above-max.evemu", 6, "axis 0x35 has min 1000 > max 0"),
        ("axis-min-above-max.libinput.yml", 13, "axis 0x35 has min 1000 > max 0"),
        ("mask-beyond-max.evemu", 5, "code 768 of event type 1 is beyond the highest event code (767)"),
        ("long-line.evemu", 10, "expected 'E: <sec>.<usec>"),
        ("control-characters.evemu", 10, "expected 'E: <sec>.<usec>"),
        ("pasted-malformed-event.evtest.txt", 39, "expected 'Event: time"),
    ]
}

@Suite struct HostileRecordingTests {
    @Test(arguments: Hostile.refused)
    func refusedWithFileLineAndShortMessage(name: String, line: Int, fragment: String) throws {
        let path = Hostile.path(name)
        do {
            _ = try RecordingReader.read(path: path)
            Issue.record("\(name) was read")
        } catch {
            #expect(error.file == path)
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(fragment), "\(error)")
            #expect(error.message.count < 220, "an excerpt, not the line: \(error.message.count) characters")
            #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 }, "control characters are escaped: \(error)")
        }
    }

    @Test func excerptsAreShortAndEscaped() {
        #expect(RecordingError.excerpt("a'b\u{1b}[31m\tc") == #"'a\'b\u{1b}[31m\tc'"#)
        let long = String(repeating: "9", count: 10_000)
        #expect(RecordingError.excerpt(long) == "'" + String(repeating: "9", count: 60) + "'… (10000 bytes)")
    }

    @Test func theLargestAllowedSlotCountAndZeroWidthAxesAreRead() throws {
        let slots = try RecordingReader.read(path: Hostile.path("slot-max-255.evemu"))
        #expect(slots.devices[0].description.slotCount == DeviceDescription.maxSlots)
        let flat = try RecordingReader.read(path: Hostile.path("axis-zero-width.evemu"))
        #expect(flat.devices[0].description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 0, resolution: 10))
        #expect(flat.devices[0].events.count == 9)
    }

    @Test func aLineLongerThanTheLimitIsRefusedWithoutReadingItWhole() throws {
        let header = "N: A\nI: 0 0 0 0\nA: 2f 0 9 0 0 0\n"
        let text = header + "E: 0.1 0003 0035 " + String(repeating: "1", count: RecordingLimits.maxLineBytes + 10) + "\n"
        let e = try #require(readError(text))
        #expect(e.line == 4)
        #expect(e.message.hasPrefix("line longer than \(RecordingLimits.maxLineBytes) bytes"))
        #expect(e.message.count < 200)
    }

    @Test func aFrameThatNeverEndsIsRefusedAtItsFirstLine() throws {
        var text = "N: A\nI: 0 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 100 0 0 0\nE: 0.1 0000 0000 0000\n"
        text += String(repeating: "E: 0.2 0003 0035 1\n", count: RecordingLimits.maxFrameEvents + 1)
        let e = try #require(readError(text))
        #expect(e.line == 6)
        #expect(e.message.contains("events without a SYN_REPORT"))
    }

    @Test func aYAMLFrameThatNeverEndsIsRefusedAtItsFirstLine() throws {
        var text = "version: 1\ndevices:\n  - evdev:\n      name: x\n      id: [1, 2, 3, 4]\n"
        text += "      codes: {3: [53]}\n      absinfo: {53: [0, 100, 0, 0, 0]}\n    events:\n      - evdev:\n"
        text += "        - [0, 1, 0, 0, 0]\n"
        text += String(repeating: "        - [0, 2, 3, 53, 1]\n", count: RecordingLimits.maxFrameEvents + 1)
        let e = try #require(readError(text, file: "t.yml"))
        #expect(e.line == 11)
        #expect(e.message == RecordingLimits.frameTooLong)
    }

    /// `SYN_DROPPED` ends what was before it as `SYN_REPORT` does (the frame assembler drops it):
    /// the count starts over in every format.
    @Test func aDroppedMarkerStartsTheFrameCountOver() throws {
        let half = RecordingLimits.maxFrameEvents / 2 + 1
        var evemu = "N: A\nI: 0 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 100 0 0 0\n"
        evemu += String(repeating: "E: 0.2 0003 0035 1\n", count: half) + "E: 0.2 0000 0003 0\n"
        evemu += String(repeating: "E: 0.2 0003 0035 1\n", count: half) + "E: 0.3 0000 0000 0\n"
        #expect(readError(evemu) == nil)
        var yaml = "version: 1\ndevices:\n  - evdev:\n      name: x\n      id: [1, 2, 3, 4]\n"
        yaml += "      codes: {3: [53]}\n      absinfo: {53: [0, 100, 0, 0, 0]}\n    events:\n      - evdev:\n"
        yaml += String(repeating: "        - [0, 2, 3, 53, 1]\n", count: half) + "        - [0, 2, 0, 3, 0]\n"
        yaml += String(repeating: "        - [0, 2, 3, 53, 1]\n", count: half) + "        - [0, 3, 0, 0, 0]\n"
        #expect(readError(yaml, file: "t.yml") == nil)
    }

    @Test func aHeaderLongerThanTheLimitIsRefused() throws {
        let comment = "# " + String(repeating: "x", count: 1000) + "\n"
        let text = String(repeating: comment, count: RecordingLimits.maxHeaderBytes / 1000 + 1) + "N: A\n"
        let e = try #require(readError(text))
        #expect(e.message.contains("the header"))
    }

    @Test func propertiesAndTypesBeyondTheirMaximaAreRefused() throws {
        #expect(readError("N: A\nI: 0 0 0 0\nP: 00 00 00 00 01\n")?.message.contains("beyond INPUT_PROP_MAX") == true)
        let evtest = "Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x1\nInput device name: \"A\"\n  Event type 99 (?)\n"
        #expect(readError(evtest, file: "e.txt")?.message.contains("beyond EV_MAX") == true)
    }
}

@Suite struct PastedDumpTests {
    @Test func blankAndCommentLinesAmongEvemuEventsAreSkippedAndCounted() throws {
        let rec = try RecordingReader.read(path: Hostile.path("comments-among-events.evemu"))
        #expect(rec.devices[0].events.count == 7)
        #expect(rec.skippedLines.count == 3)
        #expect(rec.skippedLines.firstLine == 11)
    }

    @Test func foreignLinesOfAPastedEvtestLogAreSkippedAndCounted() throws {
        let rec = try RecordingReader.read(path: Hostile.path("pasted.evtest.txt"))
        #expect(rec.format == .evtest)
        #expect(rec.devices[0].description.name == "Crafted Touchscreen")
        #expect(rec.devices[0].description.slotCount == 10)
        #expect(rec.devices[0].events.count == 8)
        #expect(rec.skippedLines.count == 5, "two prompt lines before, a wrapper's message between, ^C and a prompt after")
        #expect(rec.skippedLines.firstLine == 1)
        #expect(rec.devices[0].truncatedTail == nil)
    }

    @Test func olderEvtestNamesAreReadThroughTheirNumbers() throws {
        let mt = try RecordingReader.read(path: Hostile.path("old-names.evtest.txt"))
        let current = try RecordingReader.read(path: Hostile.path("pasted.evtest.txt"))
        #expect(mt.devices[0].events == current.devices[0].events, "'Report Sync' is SYN_REPORT; 'Absolute' is read as type 3")
        #expect(mt.devices[0].description.absInfo == current.devices[0].description.absInfo)
        #expect(mt.skippedLines.count == 0)

        let st = try RecordingReader.read(path: Hostile.path("old-names-single-touch.evtest.txt"))
        let d = st.devices[0].description
        #expect(d.codes[.key] == [KeyCode.btnTouch, KeyCode.btnToolPen])
        #expect(d.absInfo[AbsCode.x]?.maximum == 1000)
        #expect(st.devices[0].events.filter { $0.type == .syn && $0.code == SynCode.report }.count == 3)
        #expect(Array(st.devices[0].events.prefix(2)) == [
            InputEvent(time: Timestamp(seconds: 1000, microseconds: 0), type: .key, code: KeyCode.btnToolPen, value: 1),
            InputEvent(time: Timestamp(seconds: 1000, microseconds: 0), type: .key, code: KeyCode.btnTouch, value: 1),
        ])
    }

    @Test func theOlderConfigSyncIsSynConfig() throws {
        let text = "Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x1\nInput device name: \"A\"\n"
            + "Event: time 1.000000, -------------- Config Sync ------------\n"
        let rec = try RecordingReader.read(bytes(text), file: "e.txt")
        #expect(rec.devices[0].events == [InputEvent(time: Timestamp(seconds: 1, microseconds: 0), type: .syn, code: SynCode.config, value: 0)])
    }
}
