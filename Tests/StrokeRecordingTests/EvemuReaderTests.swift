import InputCore
import StrokeRecording
import Testing

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func readError(_ text: String, file: String = "t.rec") -> RecordingError? {
    do {
        _ = try RecordingReader.read(bytes(text), file: file)
        return nil
    } catch {
        return error
    }
}

@Suite struct EvemuReaderTests {
    static let header13 = """
        # EVEMU 1.3
        # Input device name: "X"
        #   Event type 3 (EV_ABS)
        #     Event code 47 (ABS_MT_SLOT)
        #       Value        3
        #     Event code 53 (ABS_MT_POSITION_X)
        #       Value        0
        #       Resolution  12
        N: Test # Device
        I: 0018 056a 005d 0005
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 03 00 00 00 00 00 80 60 02
        A: 2f 0 9 0 0 0
        A: 35 0 799 4 0 10
        A: 36 0 479 0 0 0
        A: 39 0 65535 0 0 0
        L: 00 1
        S: 00 0

        """

    @Test func readsTheDescriptionOf13() throws {
        let rec = try RecordingReader.read(bytes(Self.header13 + "E: 0.000001 0003 0039 -001\t# comment\nE: 0.000001 0000 0000 0000\n"), file: "t")
        #expect(rec.format == .evemu(major: 1, minor: 3))
        let d = rec.devices[0].description
        #expect(d.name == "Test # Device", "a '#' in N: is part of the name")
        #expect(d.id == InputID(bustype: 0x18, vendor: 0x56a, product: 0x5d, version: 5))
        #expect(d.properties == [InputProperty.direct])
        #expect(d.codes[.key] == [KeyCode.btnTouch])
        #expect(d.codes[.syn] == [0, 1, 3])
        #expect(d.codes[.abs] == [AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID])
        #expect(d.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 799, fuzz: 4, resolution: 10), "A: wins over the comment")
        #expect(d.initialSlot == 3, "the initial slot comes from the comment block")
        #expect(d.currentValues == [AbsCode.mtSlot, AbsCode.mtPositionX], "the axes the comment block gives a Value")
        #expect(d.slotCount == 10)
        #expect(rec.devices[0].events.map(\.value) == [-1, 0], "padded negative values")
        #expect(rec.devices[0].truncatedTail == nil)
    }

    @Test func headerlessOldFormatWithFiveFieldAbsLinesAndUnpaddedValues() throws {
        let text = """
            N: Old
            I: 0011 0002 0007 01b1
            A: 35 1472 5472 8 0
            E: 1358916661.266155 0003 0035 3645
            E: 1358916661.266155 0003 0039 -1
            E: 1358916661.5 0000 0000 0
            """
        let rec = try RecordingReader.read(bytes(text), file: "old")
        #expect(rec.format == .evemu(major: 1, minor: 0))
        #expect(rec.devices[0].description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 1472, maximum: 5472, fuzz: 8))
        #expect(rec.devices[0].events.map(\.value) == [3645, -1, 0])
        #expect(rec.devices[0].events.map(\.time.microseconds) == [1_358_916_661_266_155, 1_358_916_661_266_155, 1_358_916_661_500_000])
    }

    @Test func resolutionMissingFromFiveFieldAbsLinesIsTakenFromTheCommentBlock() throws {
        let text = "# EVEMU 1.1\n#   Event type 3 (EV_ABS)\n#     Event code 53 (ABS_MT_POSITION_X)\n#       Resolution 10\nN: A\nI: 0 0 0 0\nA: 35 0 4648 4 0\n"
        let rec = try RecordingReader.read(bytes(text), file: "t")
        #expect(rec.devices[0].description.absInfo[AbsCode.mtPositionX]?.resolution == 10)
    }

    @Test func truncatedLastFrameIsReportedWithItsLine() throws {
        let text = Self.header13 + "E: 0.1 0003 0039 5\nE: 0.1 0000 0000 0\nE: 0.2 0003 0035 7\nE: 0.2 0003 0036 8\n"
        let rec = try RecordingReader.read(bytes(text), file: "t")
        let headerLines = Self.header13.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(rec.devices[0].truncatedTail == TruncatedTail(eventCount: 2, line: headerLines + 3))
    }

    @Test func malformedEventLineNamesFileLineAndExpectation() throws {
        let text = "N: A\nI: 0 0 0 0\nE: 0.1 0003 0039 5\nE: 0.1 0003 zz 5\n"
        let e = try #require(readError(text, file: "bad.evemu"))
        #expect(e.file == "bad.evemu")
        #expect(e.line == 4)
        #expect(e.message.contains("expected 'E: <sec>.<usec> <type (hex)> <code (hex)> <value>'"))
        #expect(e.message.contains("E: 0.1 0003 zz 5"))
        #expect(e.description.hasPrefix("bad.evemu:4: expected"))
    }

    @Test(arguments: [
        ("N: A\nI: 0 0 0 0\nA: 35 0 10 0\n", 3, "5 or 6 fields"),
        ("N: A\nI: 0 0 0 0\nA: 35 0 10 0 0 0 0\n", 3, "5 or 6 fields"),
        ("N: A\nI: 0 0 zz 0\n", 2, "I: <bustype>"),
        ("N: A\nI: 0 0 0 0\nX: what\n", 3, "expected a device description line"),
        ("I: 0 0 0 0\nE: 0.1 0 0 0\n", 2, "N: <device name>"),
        ("N: A\nI: 0 0 0 0\nE: 0.1 0003 0035 99999999999\n", 3, "expected 'E:"),
        ("N: A\nI: 0 0 0 0\nE: 0.1 0003 0035 1\ngarbage\n", 4, "expected an event line"),
        ("N: A\nI: 0 0 0 0\nB: 40 00\n", 3, "B: <type>"),
        ("N: A\nI: 0 0 0 0\nE: 0.1234567 0003 0035 1\n", 3, "expected 'E:"),
        // B: 03 declares ABS_MT_POSITION_X (0x35), and no A: line gives its range.
        ("N: A\nI: 0 0 0 0\nB: 03 00 00 00 00 00 00 20 00\nE: 0.1 0003 0035 1\n", 4, "declares axis 0x35 but gives no range"),
    ])
    func malformedEvemu(text: String, line: Int, fragment: String) throws {
        let e = try #require(readError(text))
        #expect(e.line == line)
        #expect(e.message.contains(fragment), "\(e)")
    }

    @Test func emptyFileIsAnError() throws {
        let e = try #require(readError(""))
        #expect(e.description == "t.rec: the file is empty")
    }
}
