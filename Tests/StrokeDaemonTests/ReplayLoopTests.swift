import InputCore
import Logging
import NIOEmbedded
import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import Testing

/// `--replay --loop`: every round is the recording from its start, as a device just plugged in.
/// Found by a black-box test on recording 04, which ends with two fingers down: the next round's
/// contacts were decoded into the old round's slots (one stroke took another contact's points,
/// jumping across the screen) and the slot the old round ended on was still selected.
@Suite struct ReplayLoopTests {
    /// Two fingers, the second on slot 1, both still down at the end. The first frame selects no
    /// slot: the kernel starts at slot 0.
    static func fingersLeftDown() -> Recording {
        TestRecordings.recording("loop screen", frames: [
            [(AbsCode.mtTrackingID, 1), (AbsCode.mtPositionX, 100), (AbsCode.mtPositionY, 100)],
            [(AbsCode.mtSlot, 1), (AbsCode.mtTrackingID, 2), (AbsCode.mtPositionX, 500), (AbsCode.mtPositionY, 500)],
            [(AbsCode.mtPositionX, 510)],
        ])
    }

    @Test func eachRoundStartsFromTheRecordingsFirstState() async throws {
        let d = try await TestDaemon(recording: Self.fingersLeftDown(), name: "loop", looping: true)
        let c = try d.connect()
        _ = try c.subscribe()
        try await d.advance(3)  // round 1
        try await d.advance(3)  // round 2
        var seen: [String] = []
        for _ in 0..<8 {
            guard case .stroke(let e) = try c.message() else { continue }
            seen.append("\(e.kind.rawValue) \(e.stroke) slot \(e.slot) x \(e.point.x)\(e.reason.map { " \($0)" } ?? "")")
        }
        #expect(seen == [
            "began 1 slot 0 x 100", "began 2 slot 1 x 500", "moved 2 slot 1 x 510",
            "cancelled 1 slot 0 x 100 replayRestarted", "cancelled 2 slot 1 x 510 replayRestarted",
            "began 3 slot 0 x 100", "began 4 slot 1 x 500", "moved 4 slot 1 x 510",
        ])
        try await d.stop()
    }
}

@Suite struct InstanceTests {
    /// docs/protocol.md: `instance` is 16 lowercase hex digits (a black-box test saw 15: the
    /// leading zero of a random number was dropped).
    @Test func instanceIsSixteenHexDigits() async throws {
        for _ in 0..<64 {
            let d = Daemon(loop: EmbeddedEventLoop(), settings: .init(), logger: Logger(label: "test"))
            #expect(d.instance.count == 16)
            #expect(d.instance.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
    }
}
