import Foundation
import StrokeClient
import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import Testing

/// A contact held for thousands of frames (a resting object, tape on a kiosk screen) no longer
/// makes every `subscribe` end in `slowClient`: its snapshot keeps the stroke's last points within
/// half the client's byte limit and says how many it left out (docs/protocol.md, "Stroke objects").
@Suite(.serialized) struct LongContactTests {
    /// One finger down at frame 1, moving a unit every frame for `frames` frames, never lifted.
    static func restingContact(frames: Int) throws -> Recording {
        let lines = try String(contentsOfFile: TestDaemon.fixture(TestDaemon.fourFingers), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        var text = Array(lines.prefix { !$0.hasPrefix("E:") }).map(String.init)
        text += [
            "E: 0.000001 0003 002f 0000", "E: 0.000001 0003 0039 0021", "E: 0.000001 0003 0035 0400",
            "E: 0.000001 0003 0036 0100", "E: 0.000001 0001 014a 0001", "E: 0.000001 0000 0000 0000",
        ]
        for i in 1..<frames {
            let t = String(format: "%d.%06d", i / 100, (i % 100) * 10_000 + 1)
            text += ["E: \(t) 0003 0035 \(400 + i % 2)", "E: \(t) 0000 0000 0000"]
        }
        return try RecordingReader.read(Array((text + [""]).joined(separator: "\n").utf8), file: "rest.evemu")
    }

    @Test func aSnapshotOfALongContactFitsAndSaysWhatItLeftOut() async throws {
        var settings = Daemon.Settings()
        settings.queue.disconnectAfterBytes = 256 << 10
        let frames = 6000  // ~6000 points: more than 256 KiB of JSON
        let d = try await TestDaemon(recording: try Self.restingContact(frames: frames), name: "rest.evemu", settings: settings)
        try await d.advance(frames)
        let c = try d.connect()
        let (_, snapshot) = try c.subscribe()
        let line = try #require(c.lines.last)
        #expect(line.utf8.count <= 128 << 10 + 100)
        let strokes = try #require(snapshot?["strokes"] as? [[String: Any]])
        #expect(strokes.count == 1)
        let points = try #require(strokes.first?["points"] as? [[String: Any]])
        let omitted = try #require(strokes.first?["pointsOmitted"] as? Int)
        #expect(points.count > 100 && omitted > 0)
        #expect(points.count + omitted == frames)
        #expect(points.last?["time"] as? Int == (frames - 1) / 100 * 1_000_000 + ((frames - 1) % 100) * 10_000 + 1)
        // The typed client reads it too.
        guard case .snapshot(let typed) = try ServerMessage(line: line) else { throw LineSocket.Error(message: "not a snapshot") }
        #expect(typed.strokes.first?.pointsOmitted == omitted)
        // Subscribed, not cut: a `live` request is answered the same way, on the same connection.
        try c.send(["id": 2, "request": "live"])
        let live = try c.next()
        #expect(live["type"] as? String == "reply")
        #expect((live["strokes"] as? [[String: Any]])?.first?["pointsOmitted"] as? Int == omitted)
        #expect(try await d.onLoop { $0.stats.slowClientsDisconnected } == 0)
        try await d.stop()
    }
}
