import Foundation
import GestureRecognizer
import InputCore
import Logging
import NIOEmbedded
import StrokeClient
@testable import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker
import Testing

/// `gesture` is a stream type a client asks for (feature `gestures`); the default subscription
/// never carries it.
@Suite(.serialized) struct GestureStreamTests {
    /// What `strokes replay --gestures` prints for the gestures of `name`.
    static func gestureLines(_ name: String) throws -> [String] {
        var replayer = try Replayer(recording: try RecordingReader.read(path: TestDaemon.fixture(name)))
        var recognizers = GestureRecognizers()
        for d in replayer.devices { recognizers.add(d.id, geometry: d.geometry, kind: d.description.kind) }
        var events: [StrokeEvent] = []
        var steps: [Gesture] = []
        while let step = try replayer.next(into: &events) {
            recognizers.process(events, device: step.device, time: step.time, into: &steps)
            events.removeAll()
        }
        return steps.map { $0.json() }
    }

    @Test func greetingAnnouncesGestures() async throws {
        let d = try await TestDaemon()
        let socket = try LineSocket(path: d.path)
        let hello = try #require(try socket.readLine(timeout: 5)).json
        #expect((hello["features"] as? [String])?.contains("gestures") == true)
        try await d.stop()
    }

    @Test func onlyClientsThatAskGetGestures() async throws {
        let expected = try Self.gestureLines(TestDaemon.fourFingers)
        #expect(!expected.isEmpty)
        let d = try await TestDaemon()
        let plain = try d.connect()
        _ = try plain.subscribe()
        let asking = try d.connect()
        _ = try asking.subscribe(["events": ["began", "moved", "ended", "cancelled", "gesture"]])
        try await d.advance()
        let plainLines = try plain.drain()
        let askingLines = try asking.drain()
        #expect(!plainLines.isEmpty && !plainLines.contains { $0.contains(#""type":"gesture""#) })
        let gestures = askingLines.filter { $0.hasPrefix(#"{"type":"gesture""#) }
        #expect(gestures == expected)
        // Not numbered: the stroke events' sequence numbers stay gapless around them.
        let seqs = askingLines.compactMap { $0.json["seq"] as? Int }
        #expect(seqs.count == askingLines.count - gestures.count && seqs == Array(seqs[0]..<(seqs[0] + seqs.count)))
        // And each decodes as the wire type on main.
        for line in gestures {
            guard case .gesture = try ServerMessage(line: line) else {
                Issue.record("not a gesture: \(line)")
                continue
            }
        }
        try await d.stop()
    }

    /// A finger that rests sends no frames: the daemon's timer fires the hold on time.
    @Test func holdFiresFromTheTimerWithNoFrame() async throws {
        let lines = try String(contentsOfFile: TestDaemon.fixture(TestDaemon.fourFingers), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.prefix { !$0.hasPrefix("E:") }
        let text = (header + [
            "E: 0.000001 0003 002f 0000", "E: 0.000001 0003 0039 0021", "E: 0.000001 0003 0035 0415",
            "E: 0.000001 0003 0036 0107", "E: 0.000001 0001 014a 0001", "E: 0.000001 0000 0000 0000",
            "E: 5.000000 0003 0039 -001", "E: 5.000000 0001 014a 0000", "E: 5.000000 0000 0000 0000", "",
        ]).joined(separator: "\n")
        let recording = try RecordingReader.read(Array(text.utf8), file: "rest.evemu")
        let d = try await TestDaemon(recording: recording, name: "rest.evemu")
        let c = try d.connect()
        _ = try c.subscribe(["events": ["gesture"]])
        // The timer is armed now (under load it may have fired already: not asserted).
        try await d.advance(1)
        let begin = try #require(try c.read(1, timeout: 5).first)
        guard case .gesture(let g) = try ServerMessage(line: begin) else { throw LineSocket.Error(message: begin) }
        #expect(g.kind == .hold && g.phase == .begin && g.time == 400_001 && g.fingers == 1)
        #expect(try await d.onLoop { $0.gestureTimers.isEmpty }, "nothing armed once it fired")
        try await d.advance()
        guard case .gesture(let end) = try ServerMessage(line: try #require(try c.read(1, timeout: 5).first)) else {
            throw LineSocket.Error(message: "no hold end")
        }
        #expect(end.kind == .hold && end.phase == .end && end.gesture == g.gesture && end.time == 5_000_000)
        try await d.stop()
    }

    /// Removing a device mid-gesture cancels it (its strokes are cancelled first).
    @Test func removingADeviceCancelsItsGesture() throws {
        let recording = try RecordingReader.read(path: TestDaemon.fixture(TestDaemon.fourFingers))
        var hub = Hub(historyLimit: 16, resumeLimit: 16)
        let (id, _) = try hub.addDevice(path: "test", description: recording.devices[0].description)
        var frames = MergedFrames(RecordingStream(memory: recording, file: "03"))
        var out: [Broadcast] = []
        while let (_, input) = try frames.next() {
            hub.process(input, device: id, into: &out)
            if out.contains(where: { $0.line.contains(#""phase":"begin""#) }) { break }
        }
        let begun = out.filter { $0.typeName == "gesture" }
        #expect(begun.count == 1 && begun[0].line.contains(#""kind":"swipe""#))
        out.removeAll()
        hub.removeDevice(id, time: nil, into: &out)
        let cancelled = out.filter { $0.typeName == "gesture" }.map(\.line)
        #expect(cancelled.count == 1 && cancelled[0].contains(#""phase":"cancel""#))
        #expect(out.last?.typeName == "deviceRemoved")
    }

    /// While no client takes gestures nothing is encoded (the recognisers still run).
    @Test func gesturesAreEncodedOnlyWhileSomeoneListens() async throws {
        let d = try await TestDaemon()
        #expect(try await d.onLoop { $0.hub.encodesGestures } == false)
        let plain = try d.connect()
        _ = try plain.subscribe()
        #expect(try await d.onLoop { $0.hub.encodesGestures } == false)
        let asking = try d.connect()
        _ = try asking.subscribe(["events": ["gesture"]])
        #expect(try await d.onLoop { $0.hub.encodesGestures } == true)
        try asking.send(["id": 9, "request": "unsubscribe"])
        _ = try asking.next()
        #expect(try await d.onLoop { $0.hub.encodesGestures } == false)
        try await d.stop()
    }

    /// The daemon stopping cancels every gesture under way, after the strokes' `cancelled`.
    @Test func shutdownCancelsTheGestureUnderWay() throws {
        let recording = try RecordingReader.read(path: TestDaemon.fixture(TestDaemon.fourFingers))
        var hub = Hub(historyLimit: 16, resumeLimit: 16)
        let (id, _) = try hub.addDevice(path: "test", description: recording.devices[0].description)
        var frames = MergedFrames(RecordingStream(memory: recording, file: "03"))
        var out: [Broadcast] = []
        while let (_, input) = try frames.next() {
            hub.process(input, device: id, into: &out)
            if out.contains(where: { $0.line.contains(#""phase":"update""#) }) { break }
        }
        out.removeAll()
        hub.cancelAll(reason: .shutdown, time: nil, into: &out)
        #expect(out.map(\.typeName) == ["cancelled", "cancelled", "cancelled", "cancelled", "gesture"])
        #expect(out.last?.line.contains(#""kind":"swipe","phase":"cancel""#) == true)
    }

    @Test func theDefaultFilterLeavesGesturesOut() {
        let b = Broadcast(seq: 0, kind: .gesture, device: DeviceID(1), line: "{}")
        #expect(!TypeFilter(nil).passes(b))
        #expect(TypeFilter(["gesture"]).passes(b))
        #expect(!TypeFilter(["began"]).passes(b))
        #expect(b.mergeKey == nil && b.finishedKey == nil && !b.isHover)
    }
}

/// A hold's timer counts the device's clock: a replay at speed 4 reaches a 400 ms hold 100 ms
/// after the finger landed. On an embedded loop, whose time moves only when told.
@Suite struct GestureClockRateTests {
    func holdFires(rate: Double?) throws -> (before: Bool, after: Bool) {
        let loop = EmbeddedEventLoop()
        let daemon = Daemon(loop: loop, settings: .init(), logger: Logger(label: "test"))
        let id = try daemon.addDevice(path: "replay:test", description: TestRecordings.screen("hold"))
        if let rate { daemon.setClockRate(rate, of: id) }
        let t = Timestamp(microseconds: 1_000_000)
        func ev(_ type: EventType, _ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(time: t, type: type, code: code, value: v) }
        daemon.process(
            .frame(Frame(events: [ev(.abs, AbsCode.mtSlot, 0), ev(.abs, AbsCode.mtTrackingID, 1), ev(.abs, AbsCode.mtPositionX, 500),
                                  ev(.abs, AbsCode.mtPositionY, 500)], time: t)), device: id)
        #expect(!daemon.gestureTimers.isEmpty, "a resting finger arms the hold's timer")
        let real = 400_000 / (rate ?? 1)  // µs until the hold, in real time
        loop.advanceTime(by: .microseconds(Int64(real) - 1000))
        let before = daemon.gestureTimers.isEmpty
        loop.advanceTime(by: .milliseconds(2))
        return (before, daemon.gestureTimers.isEmpty)
    }

    @Test func aHoldTimerRunsAtTheDevicesClockRate() throws {
        for rate in [nil, 4.0, 0.5] {
            let (before, after) = try holdFires(rate: rate)
            #expect(!before, "rate \(rate ?? 1): fired early")
            #expect(after, "rate \(rate ?? 1): not fired at 400 ms of the device's clock")
        }
    }
}
