import Foundation
import StrokeClient
import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// What `strokes replay` prints for a recording: the stream every subscriber must receive.
func replayTranscript(_ name: String) throws -> [String] {
    var replayer = try Replayer(recording: try RecordingReader.read(path: TestDaemon.fixture(name)))
    let events = try replayer.runToEnd()
    return events.map { $0.json(geometry: replayer.devices[Int($0.device.rawValue) - 1].geometry) }
}

@Suite(.serialized) struct SocketStreamTests {
    @Test func greetingNamesProtocolVersionAndFeatures() async throws {
        let d = try await TestDaemon()
        let socket = try LineSocket(path: d.path)
        let hello = try #require(try socket.readLine(timeout: 5)).json
        #expect(hello["type"] as? String == "hello")
        #expect(hello["protocol"] as? Int == ProtocolVersion.current)
        #expect((hello["features"] as? [String])?.contains("resume") == true)
        #expect(hello["maxLineLength"] as? Int == 65536)
        try await d.stop()
    }

    @Test func severalClientsReceiveIdenticalStreamsEqualToReplay() async throws {
        let expected = try replayTranscript(TestDaemon.fourFingers)
        let d = try await TestDaemon()
        let clients = try (0..<3).map { _ in try d.connect() }
        for c in clients {
            let (reply, snapshot) = try c.subscribe()
            #expect(reply["seq"] as? Int == 1)  // the deviceAdded of the replayed device
            #expect((snapshot?["strokes"] as? [Any])?.isEmpty == true)
        }
        try await d.advance()
        var streams: [[String]] = []
        for c in clients {
            let lines = try c.read(expected.count)
            streams.append(lines)
            // Sequence numbers are consecutive from 2.
            #expect(lines.map { $0.json["seq"] as? Int ?? -1 } == Array(2..<(2 + expected.count)))
        }
        #expect(streams[0] == streams[1] && streams[1] == streams[2])
        #expect(streams[0].map(\.withoutSeq) == expected)
        try await d.stop()
    }

    @Test func lateJoinerGetsTheStrokesInProgressThenTheRest() async throws {
        let d = try await TestDaemon()
        let early = try d.connect()
        _ = try early.subscribe()
        try await d.advance(20)
        let live = try await d.onLoop { $0.hub.tracker.live }
        #expect(live.count == 4)  // four fingers down after 20 frames (golden transcript 03)
        let late = try d.connect()
        let (reply, snapshot) = try late.subscription()
        let snap = try #require(snapshot)
        let snapSeq = Int(snap.seq)
        #expect(snap.seq == reply.seq)
        #expect(snap.strokes.map(\.stroke) == live.map(\.id.rawValue))
        #expect(snap.strokes.map(\.points.count) == live.map { $0.points.count })
        #expect(snap.strokes.allSatisfy { $0.state == .inProgress })

        try await d.advance()
        // The early client's stream after the snapshot's seq is exactly the late client's stream.
        let total = try await d.onLoop { Int($0.hub.seq) }
        let earlyLines = try early.read(total - 1)
        let lateLines = try late.read(total - snapSeq)
        #expect(Array(earlyLines.drop { ($0.json["seq"] as? Int ?? 0) <= snapSeq }) == lateLines)
        // Everything the late client hears of is either in its snapshot or begins after it.
        var known = Set(snap.strokes.map(\.stroke))
        for line in lateLines {
            guard case .stroke(let e) = try ServerMessage(line: line) else {
                Issue.record("not a stroke event: \(line)")
                continue
            }
            if e.kind == .began { known.insert(e.stroke) }
            #expect(known.contains(e.stroke), "event for stroke \(e.stroke), which the late client never heard of")
        }
        try await d.stop()
    }

    @Test func filtersByEventTypeAndDevice() async throws {
        let expected = try replayTranscript(TestDaemon.fourFingers).filter { !$0.hasPrefix("{\"type\":\"moved\"") }
        let d = try await TestDaemon()
        let c = try d.connect()
        _ = try c.subscribe(["events": ["began", "ended", "cancelled"], "devices": [1]])
        let other = try d.connect()
        _ = try other.subscribe(["devices": [2]])
        try await d.advance()
        #expect(try c.read(expected.count).map(\.withoutSeq) == expected)
        try other.send(["id": 9, "request": "ping"])
        // Nothing for device 2 came before the ping's reply.
        #expect(try other.next()["id"] as? Int == 9)
        try await d.stop()
    }

    @Test func resumeAfterASequenceNumberReplaysWhatWasMissed() async throws {
        var settings = Daemon.Settings()
        settings.resumeLimit = 40  // recording 03 makes 107 messages
        let d = try await TestDaemon(settings: settings)
        let c = try d.connect()
        _ = try c.subscribe()
        try await d.advance(10)
        let seen = try c.read(try await d.onLoop { Int($0.hub.seq) } - 1)
        let last = try #require(seen.last?.json["seq"] as? Int)
        c.socket.shutdownWrite()
        try await d.advance(10)
        let missed = try await d.onLoop { Int($0.hub.seq) } - last

        let again = try d.connect()
        let (reply, snapshot) = try again.subscribe(["resumeAfter": last])
        #expect(reply["resumed"] as? Bool == true)
        #expect(snapshot == nil)
        let resumed = try again.read(missed)
        #expect(resumed.map { $0.json["seq"] as? Int ?? 0 } == Array((last + 1)...(last + missed)))

        // Far more than the buffer holds goes by: the daemon says so and sends a snapshot.
        try await d.advance()
        let tooOld = try d.connect()
        let (reply2, snapshot2) = try tooOld.subscribe(["resumeAfter": last])
        #expect(reply2["resumed"] as? Bool == false)
        #expect(reply2["reason"] as? String == "gapTooOld")
        #expect(snapshot2?["type"] as? String == "snapshot")
        try await d.stop()
    }

    /// A resume further back than `mergeAfter` still sends every message after the given one,
    /// none merged (the resumed messages are queued before the client can read any).
    @Test func resumingMoreThanMergeAfterBackMergesNothing() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(mergeAfter: 16, disconnectAfter: 100_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        let d = try await TestDaemon(settings: settings)
        let start = try await d.onLoop { Int($0.hub.seq) }
        try await d.advance()
        let missed = try await d.onLoop { Int($0.hub.seq) } - start
        #expect(missed > 16 * 4)
        let c = try d.connect()
        let (reply, _) = try c.subscribe(["resumeAfter": start])
        #expect(reply["resumed"] as? Bool == true)
        let resumed = try c.read(missed)
        #expect(resumed.map { $0.json["seq"] as? Int ?? 0 } == Array((start + 1)...(start + missed)))
        #expect(resumed.allSatisfy { !$0.contains("\"merged\"") })
        try await d.stop()
    }

    @Test func shutdownCancelsLiveStrokesThenSaysGoodbye() async throws {
        let d = try await TestDaemon()
        let c = try d.connect()
        _ = try c.subscribe(["events": ["cancelled"]])
        try await d.advance(20)
        try await d.stop()
        var cancelled = 0
        while let line = try c.socket.readLine(timeout: 5) {
            let m = line.json
            if m["type"] as? String == "cancelled" {
                #expect(m["reason"] as? String == "shutdown")
                cancelled += 1
            } else {
                #expect(m["type"] as? String == "goodbye")
                #expect(m["reason"] as? String == "shutdown")
            }
        }
        #expect(cancelled == 4)
    }
}
