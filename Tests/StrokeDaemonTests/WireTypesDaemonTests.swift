import Foundation
import InputCore
import StrokeDaemon
import StrokeProtocol
import StrokeRecording
import StrokeTracker
import Testing

/// The Codable message types against what the daemon sends: every line a session sees (greeting,
/// every reply, errors, snapshots, the stream, history pages with cursor and missed, goodbye)
/// decodes into a known type and encodes back to the same JSON object.
@Suite(.serialized) struct WireTypesDaemonTests {
    @Test func everyLineOfASessionRoundTrips() async throws {
        var settings = Daemon.Settings()
        settings.historyLimit = 8
        settings.historyPageBytes = 1024
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings)
        let c = try d.connect()
        var seen: Set<String> = []
        func ask(_ request: Request) throws -> ServerMessage {
            let m = try c.ask(request)
            if case .reply(let r) = m { seen.insert("reply:" + r.result.request) }
            if case .error(let e) = m { seen.insert("error:" + e.error.rawValue) }
            return m
        }
        _ = try ask(Request(id: 1, .devices))
        _ = try ask(Request(id: "two", .ping))
        _ = try ask(Request(.unsubscribe))
        try c.socket.send("[1]")
        _ = try c.message()
        try c.socket.send(#"{"id":3,"request":"fly"}"#)
        _ = try c.message()
        _ = try c.subscription(events: [.began, .moved, .ended, .cancelled, .deviceAdded, .deviceRemoved, .hover])
        try await d.advance(60)
        _ = try c.drain()
        let late = try d.connect()
        let (_, snapshot) = try late.subscription()
        #expect(snapshot?.strokes.isEmpty == false, "a snapshot with strokes in progress")
        _ = try ask(Request(id: 4, .live()))
        _ = try ask(Request(id: 5, .stats))
        try await d.advance(400)
        _ = try c.drain()
        // A page, then enough strokes to push the rest of the selection out of the history.
        guard case .reply(let first) = try ask(Request(id: 6, .history(limit: 8))), case .history(let page) = first.result else {
            Issue.record("no history reply: \(c.lines.last ?? "")")
            return
        }
        let cursor = try #require(page.cursor, "a history of 8 strokes in 1 KiB pages has a cursor")
        try await d.advance(1000)
        _ = try c.drain()
        guard case .reply(let next) = try ask(Request(id: 7, .history(cursor: cursor))), case .history(let rest) = next.result else {
            Issue.record("no history reply: \(c.lines.last ?? "")")
            return
        }
        #expect(rest.missed != nil)
        _ = try ask(Request(id: 8, .subscribe(resumeAfter: 0)))
        _ = try ask(Request(id: 9, .subscribe(resumeAfter: try await d.onLoop { $0.hub.seq })))
        _ = try ask(Request(id: 10, .unsubscribe))
        try await d.stop()
        _ = try c.drain()
        _ = try late.drain()

        for (i, line) in (c.lines + late.lines).enumerated() {
            let message = try ServerMessage(line: line)
            seen.insert(message.type)
            if case .reply(let r) = message { seen.insert("reply:" + r.result.request) }
            if case .error(let e) = message { seen.insert("error:" + e.error.rawValue) }
            if let problem = try WireCheck.problem(line) { Issue.record("line \(i + 1): \(problem)") }
        }
        let expected: Set<String> = [
            "hello", "reply:devices", "reply:ping", "reply:subscribe", "reply:live", "reply:stats", "reply:history",
            "reply:unsubscribe", "error:notSubscribed", "error:invalidJSON", "error:unknownRequest", "snapshot",
            "began", "moved", "ended", "goodbye",
        ]
        #expect(expected.subtracting(seen).isEmpty, "not exercised: \(expected.subtracting(seen).sorted())")
    }

    /// Device events of every kind of device (pen tools and axes, a calibration), and the cancels
    /// of a removal (the cancels of a shutdown are the same but for the reason).
    @Test(arguments: ["19-dell-canvas-isdv4-pen-tilt.evemu", TestDaemon.fourFingers, "09-cypress-ps2-semi-mt-touchpad-3finger-press.evemu"])
    func deviceEventsRoundTrip(recording name: String) throws {
        let recording = try RecordingReader.read(path: TestDaemon.fixture(name))
        var hub = Hub(historyLimit: 8, resumeLimit: 8)
        let description = recording.devices[0].description
        let (id, added) = try hub.addDevice(path: "replay:" + name, description: description, calibration: .swapXY)
        var out = [added]
        var assembler = FrameAssembler()
        for input in recording.devices[0].events.compactMap({ assembler.feed($0) }) {
            hub.process(input, device: id, into: &out)
            if out.contains(where: { $0.typeName == "moved" }) && !hub.tracker.live.isEmpty { break }
        }
        hub.removeDevice(id, time: nil, into: &out)
        let types = out.map(\.typeName)
        #expect(types.first == "deviceAdded" && types.last == "deviceRemoved")
        #expect(types.contains("cancelled"), "strokes in progress when the device goes")
        for b in out {
            if let problem = try WireCheck.problem(b.line) { Issue.record("\(problem)") }
        }
    }
}

/// Decodes a line as `ServerMessage`, re-encodes it with `JSONEncoder` and compares the two as
/// JSON objects: nil when nothing was lost.
enum WireCheck {
    static func problem(_ line: String) throws -> String? {
        let message = try ServerMessage(line: line)
        if case .unknown(let type, _) = message { return "type \(type) decodes as unknown: \(line)" }
        let original = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(message))
        return original.difference(from: again).map { "\($0): \(line)" }
    }
}
