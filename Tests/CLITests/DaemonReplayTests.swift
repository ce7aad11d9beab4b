import Foundation
import StrokeProtocol
import Testing

/// `daemon --replay` with recordings and configurations a black-box test found mishandled.
extension DaemonProcessTests {
    /// 03's header, then one finger down at `times[0]`, moved at `times[1]`, lifted at `times[2]`
    /// (evemu timestamps), in a temporary file.
    static func oneFingerRecording(times: [String]) throws -> String {
        let lines = try String(contentsOfFile: CLI.fixture("03-atmel-maxtouch-touchscreen-4finger-drag.evemu"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.prefix { !$0.hasPrefix("E:") }
        let (t0, t1, t2) = (times[0], times[1], times[2])
        let body = [
            "E: \(t0) 0003 002f 0", "E: \(t0) 0003 0039 5", "E: \(t0) 0003 0035 100", "E: \(t0) 0003 0036 100",
            "E: \(t0) 0001 014a 1", "E: \(t0) 0000 0000 0", "E: \(t1) 0003 0035 101", "E: \(t1) 0000 0000 0",
            "E: \(t2) 0003 0039 -1", "E: \(t2) 0001 014a 0", "E: \(t2) 0000 0000 0",
        ]
        let path = NSTemporaryDirectory() + "strokes-times-\(UUID().uuidString.prefix(8)).evemu"
        try (header.joined(separator: "\n") + "\n" + body.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The daemon greets a new client and answers a ping.
    static func serves(_ daemon: RunningDaemon) throws -> Bool {
        let c = try daemon.connect()
        guard try c.readLine(timeout: 5)?.contains(#""type":"hello""#) == true else { return false }
        try c.send(#"{"id":1,"request":"ping"}"#)
        return try c.readLine(timeout: 5)?.contains(#""type":"reply""#) == true
    }

    /// A looped recording whose times go backwards: each next round was scheduled from the last
    /// step's time, so in the past, and rounds all due at once starved the event loop (no client
    /// was ever greeted).
    @Test func aLoopedRecordingWhoseTimesGoBackwardsIsServed() throws {
        let path = try Self.oneFingerRecording(times: ["1.000000", "0.000001", "0.500000"])
        defer { unlink(path) }
        let daemon = try RunningDaemon(["--loop", "--speed", "1"], recording: path)
        usleep(1_500_000)  // past the first round
        #expect(try Self.serves(daemon), "\(daemon.log)")
        #expect(daemon.stop() == 0)
    }

    /// A recording spanning nearly 2^63 µs: looping trapped at the end of the first round
    /// (flat out) or when the far step was scheduled (paced). Now the loop stops with a warning,
    /// or the far step waits.
    @Test(arguments: ["0", "1"])
    func aLoopedRecordingSpanningMillenniaDoesNotTrap(_ speed: String) throws {
        let path = try Self.oneFingerRecording(times: ["0.000001", "9223372036853.000000", "9223372036853.100000"])
        defer { unlink(path) }
        let daemon = try RunningDaemon(["--loop", "--speed", speed], recording: path)
        usleep(1_000_000)
        #expect(try Self.serves(daemon), "\(daemon.log)")
        if speed == "0" { #expect(daemon.log.contains("looped recording stopped"), "\(daemon.log)") }
        #expect(daemon.stop() == 0)
    }

    /// `calibration:` matched a replayed device only after a SIGHUP, though `gestures.devices`
    /// matched it from the start.
    @Test func calibrationAppliesToAReplayedDeviceFromTheStart() throws {
        let config = NSTemporaryDirectory() + "strokes-cal-\(UUID().uuidString.prefix(8)).yaml"
        try "calibration:\n  - {match: \"name:Atmel*\", invertX: true}\n".write(toFile: config, atomically: true, encoding: .utf8)
        defer { unlink(config) }
        let daemon = try RunningDaemon(
            ["--config", config, "--no-loop", "--speed", "0"], recording: "03-atmel-maxtouch-touchscreen-4finger-drag.evemu")
        let c = try daemon.connect()
        _ = try c.readLine(timeout: 5)
        try c.send(#"{"id":1,"request":"devices"}"#)
        let reply = try #require(try c.readLine(timeout: 5))
        #expect(reply.contains(#""calibration":"#), "\(reply)")
        #expect(daemon.stop() == 0)
    }
}
