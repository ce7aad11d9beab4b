import Foundation
import Testing

/// Runs the built `strokes` binary, as a user would.
struct CLI {
    static let binary: URL = {
        // The test bundle sits in the products directory, beside the executable.
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("strokes")
    }()

    static let repo: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }  // file, CLITests, Tests
        return dir
    }()

    static func fixture(_ name: String) -> String {
        repo.appendingPathComponent("Tests/ReplayTests/Fixtures/" + name).path
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], stdin: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

@Suite struct CLITests {
    @Test func replayPrintsTheGoldenTranscript() throws {
        let r = try CLI.run(["replay", CLI.fixture("09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu")])
        #expect(r.status == 0)
        let golden = try String(
            contentsOf: CLI.repo.appendingPathComponent("Tests/ReplayTests/Golden/09-cypress-ps2-semi-mt-touchpad-3finger-press.jsonl"),
            encoding: .utf8
        )
        #expect(r.stdout == golden)
        #expect(r.stderr.isEmpty)
    }

    @Test func replayReadsStandardInput() throws {
        let text = try String(contentsOfFile: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evtest.txt"), encoding: .utf8)
        let r = try CLI.run(["replay", "--summary", "-"], stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout.contains("format: evtest\n"))
        #expect(r.stdout.contains("strokes: 4\n"))
    }

    @Test func summaryGivesPerRecordingFigures() throws {
        let r = try CLI.run(["replay", "--summary", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu")])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                format: evemu 1.1
                device 1: "Wacom DTH2242 Finger" (touchscreen, 10 slots)
                events: 16593
                frames: 2025
                duration: 24.129831 s
                strokes: 66
                ended: 66
                cancelled: 0
                still active: 0
                most concurrent: 10
                points moved: 4099

                """
        )
    }

    @Test func malformedRecordingExitsWithDataErrorNamingFileAndLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-bad-\(getpid()).evemu").path
        try "N: A\nI: 0 0 0 0\nA: 2f 0 9 0 0 0\nA: 35 0 10 0 0 0\nA: 36 0 10 0 0 0\nA: 39 0 65535 0 0 0\nE: 0.1 0003 0035 x\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try CLI.run(["replay", path])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("strokes: \(path):7: expected 'E: <sec>.<usec>"))
        #expect(r.stdout.isEmpty, "no partial result")
    }

    @Test func missingFileExitsWithNoInput() throws {
        let r = try CLI.run(["replay", "/nonexistent/recording.evemu"])
        #expect(r.status == 66)
        #expect(r.stderr == "strokes: /nonexistent/recording.evemu: cannot open: No such file or directory\n")
    }

    @Test func protocolAOnlyDeviceIsRefusedClearly() throws {
        let r = try CLI.run(["replay", "-"], stdin: "N: A\nI: 0 0 0 0\nA: 35 0 10 0 0 0\nA: 36 0 10 0 0 0\nE: 0.1 0000 0002 0\nE: 0.1 0000 0000 0\n")
        #expect(r.status == 65)
        #expect(r.stderr.contains("uses multitouch protocol A"))
    }

    @Test func truncatedLastFrameIsReportedAndStillActiveStrokesListed() throws {
        let r = try CLI.run(["replay", "-"], stdin: """
            N: A
            I: 0 0 0 0
            A: 2f 0 1 0 0 0
            A: 35 0 10 0 0 0
            A: 36 0 10 0 0 0
            A: 39 0 65535 0 0 0
            E: 0.1 0003 0039 5
            E: 0.1 0003 0035 3
            E: 0.1 0003 0036 4
            E: 0.1 0000 0000 0
            E: 0.2 0003 0035 7

            """)
        #expect(r.status == 0)
        #expect(r.stderr == "strokes: warning: -:11: the recording ends mid-frame (device 1): 1 events after the last SYN_REPORT were not applied\n")
        #expect(r.stdout.hasSuffix("{\"type\":\"replayEnded\",\"frames\":1,\"stillActive\":[1]}\n"))
    }

    @Test func describePrintsTheDeviceDescription() throws {
        let r = try CLI.run(["describe", CLI.fixture("09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu")])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("device 1: \"CyPS/2 Cypress Trackpad\""))
        #expect(lines.contains("  id: bus 0x0011 vendor 0x0002 product 0x0011 version 0x0001"))
        #expect(lines.contains("  kind: touchpad"))
        #expect(lines.contains("  touch: multitouch protocol B, 2 slots, initial slot 1, semi-MT: slots carry a bounding box, not fingers"))
        #expect(lines.contains("  properties: INPUT_PROP_BUTTONPAD INPUT_PROP_SEMI_MT"))
        #expect(lines.contains("    ABS_MT_POSITION_X    0..1600 resolution 16/mm"))
        #expect(lines.contains("    ABS_MT_SLOT          0..1 value 1"))
        #expect(lines.contains("  size: 100x60 mm"))
        #expect(lines.contains("  events: 342 in 46 frames"))
    }

    @Test func describeClassifiesEveryKind() throws {
        let kinds = try ["01-wacom-dth2242-touchscreen-10finger.evemu", "10-wacom-intuos5-touch-indirect-2finger-circle.evemu",
            "11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu"].map { name in
            try CLI.run(["describe", CLI.fixture(name)]).stdout.split(separator: "\n").first { $0.hasPrefix("  kind:") }
        }
        #expect(kinds == ["  kind: touchscreen", "  kind: indirect", "  kind: touchpad"])
    }

    @Test func describeShowsAPenDisplayAndItsTools() throws {
        let lines = try CLI.run(["describe", CLI.fixture("17-wacom-cintiq12wx-pen-and-eraser.evemu")]).stdout.split(separator: "\n")
        #expect(lines.contains("  kind: penDisplay"))
        #expect(lines.contains("  touch: pen (BTN_TOOL_* proximity, BTN_TOUCH contact); tools: pen eraser brush pencil airbrush"))
    }

    @Test func replayPrintsHoverOnlyWhenAsked() throws {
        let file = CLI.fixture("16-wacom-cintiq13hd-pen-hover-tilt.evemu")
        let plain = try CLI.run(["replay", file]).stdout
        let hover = try CLI.run(["replay", "--hover", file]).stdout
        #expect(!plain.contains(#""type":"hover""#))
        #expect(hover.contains(#""type":"hover","phase":"proximityIn""#))
        #expect(hover.split(separator: "\n").filter { !$0.contains(#""type":"hover""#) } == plain.split(separator: "\n"))
    }

    @Test func replayGroupArbitratesAPenAndItsTouchscreen() throws {
        let r = try CLI.run([
            "replay", "--summary", "--group", "1,2", CLI.fixture("02-dell-canvas-cooltouch-touchscreen-5finger.evemu"),
            CLI.fixture("19-dell-canvas-isdv4-pen-tilt.evemu"),
        ])
        #expect(r.status == 0)
        // The two Dell Canvas recordings share a clock: the pen comes near while two fingers are down.
        #expect(r.stdout.contains("\ncancelled: 2 (pen 2)\n"))
        #expect(try CLI.run(["replay", "--group", "1", CLI.fixture("19-dell-canvas-isdv4-pen-tilt.evemu")]).status != 0)
    }

    /// A device is in one group (libinput's device groups are hardware): groups that share a
    /// device, or name one the replay does not have, are refused; each device used to keep only
    /// the last group naming it, and a missing device turned arbitration off, both silently
    /// (tracker model round, Tests/adversary/REPORT.md).
    @Test func replayGroupsThatOverlapOrNameNoDeviceAreRefused() throws {
        let touch = CLI.fixture("02-dell-canvas-cooltouch-touchscreen-5finger.evemu")
        let pen = CLI.fixture("19-dell-canvas-isdv4-pen-tilt.evemu")
        let overlapping = try CLI.run(["replay", "--summary", "--group", "1,2", "--group", "2,3", touch, pen, touch])
        #expect(overlapping.status == 64)
        #expect(overlapping.stderr.contains("device 2 is in two groups ('1,2' and '2,3')"), "\(overlapping.stderr)")
        #expect(try CLI.run(["replay", "--group", "1,1", touch, pen]).status == 64)
        let missing = try CLI.run(["replay", "--summary", "--group", "1,3", touch, pen])
        #expect(missing.status == 64)
        #expect(missing.stderr.hasSuffix("--group 1,3: there is no device 3: \(touch) + \(pen) holds 2 devices\n"), "\(missing.stderr)")
        #expect(missing.stdout.isEmpty)
        // One group naming all three is what the overlapping ones meant.
        #expect(try CLI.run(["replay", "--summary", "--group", "1,2,3", touch, pen, touch]).status == 0)
    }

    @Test func helpListsTheSubcommands() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("replay") && r.stdout.contains("describe"))
    }
}
