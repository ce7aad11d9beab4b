import Foundation
import Testing

/// `strokes replay --gestures` and `strokes watch --gestures`.
@Suite struct GestureCLITests {
    @Test(arguments: ["03-atmel-maxtouch-touchscreen-4finger-drag", "11-synaptics-ps2-clickpad-2finger-vert-scroll"])
    func replayPrintsTheGoldenGestureTranscript(name: String) throws {
        let r = try CLI.run(["replay", "--gestures", CLI.fixture(name + ".evemu")])
        #expect(r.status == 0 && r.stderr.isEmpty)
        let golden = try String(
            contentsOf: CLI.repo.appendingPathComponent("Tests/ReplayTests/Golden/\(name).gestures.jsonl"), encoding: .utf8)
        #expect(r.stdout == golden)
        let plain = try CLI.run(["replay", CLI.fixture(name + ".evemu")]).stdout
        #expect(!plain.contains(#""type":"gesture""#), "only when asked")
    }

    @Test func watchShowsGesturesReadably() throws {
        let daemon = try DaemonProcessTests.RunningDaemon(["--loop"], recording: "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        let watch = Process()
        watch.executableURL = CLI.binary
        watch.arguments = ["watch", "--socket", daemon.socketPath, "--gestures", "--no-moves"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        // One loop of the recording is 0.57 s at `--speed 4`'s quarter: a second holds whole swipes.
        usleep(1_500_000)
        #expect(daemon.stop() == 0)
        #expect(waitForExit(watch, seconds: 20))
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("\ngesture  swipe begin #"), "\(text.prefix(2000))")
        #expect(text.contains("device 1, 4 fingers [") && text.contains("  down"))
        #expect(text.contains("\ngesture  swipe end #"))
        #expect(!text.contains("moved"), "--no-moves still leaves moves out")
        #expect(text.hasSuffix("goodbye: shutdown\n"))
    }

    /// `gestures:` of the configuration applies to a served recording too.
    @Test func theConfigurationTurnsGesturesOffForAServedRecording() throws {
        let config = NSTemporaryDirectory() + "strokes-gestures-\(UUID().uuidString.prefix(8)).yaml"
        try "gestures:\n  devices:\n    - {match: \"name:Atmel*\", enabled: false}\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let daemon = try DaemonProcessTests.RunningDaemon(
            ["--loop", "--config", config], recording: "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        let watch = Process()
        watch.executableURL = CLI.binary
        watch.arguments = ["watch", "--socket", daemon.socketPath, "--gestures", "--no-moves"]
        let out = Pipe()
        watch.standardOutput = out
        try watch.run()
        usleep(1_500_000)
        #expect(daemon.stop() == 0)
        #expect(waitForExit(watch, seconds: 20))
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(text.contains("\nended     stroke "), "\(text.prefix(500))\n\(daemon.log)")
        #expect(!text.contains("gesture"))
    }
}
