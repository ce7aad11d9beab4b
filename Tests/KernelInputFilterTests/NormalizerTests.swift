import Testing

@testable import strokes_e2e

/// The guest driver compares a live run with `strokes replay` through `Normalizer`: equal but for
/// the daemon's numbering, the clock and the stroke ids; anything else still tells them apart.
@Suite struct NormalizerTests {
    static let replay = [
        #"{"type":"began","stroke":1,"device":1,"frame":1,"slot":0,"trackingId":21,"time":1,"x":415,"y":107,"nx":0.519399,"ny":0.223382,"toolType":"finger","flags":["noResolution"]}"#,
        #"{"type":"cancelled","stroke":1,"device":1,"frame":2,"slot":0,"trackingId":21,"time":9,"x":416,"y":107,"nx":0.52,"ny":0.223382,"toolType":"finger","reason":"deviceRemoved"}"#,
    ]
    static let live = [
        #"{"type":"began","seq":12,"stroke":40,"device":3,"frame":1,"slot":0,"trackingId":21,"time":777,"x":415,"y":107,"nx":0.519399,"ny":0.223382,"toolType":"finger","flags":["noResolution"]}"#,
        #"{"type":"cancelled","seq":13,"stroke":40,"device":3,"frame":2,"slot":0,"trackingId":21,"time":790,"x":416,"y":107,"nx":0.52,"ny":0.223382,"toolType":"finger","reason":"deviceRemoved"}"#,
    ]

    @Test func numberingClockAndStrokeIdsAside() throws {
        try compare(expected: Self.replay, actual: Self.live, what: "test")
        let moved = Self.live.map { $0.replacingOccurrences(of: #""x":416"#, with: #""x":417"#) }
        #expect(throws: Failure.self) { try compare(expected: Self.replay, actual: moved, what: "test") }
        let otherReason = Self.live.map { $0.replacingOccurrences(of: "deviceRemoved", with: "resync") }
        #expect(throws: Failure.self) { try compare(expected: Self.replay, actual: otherReason, what: "test") }
    }

    @Test func receivedReadsTheTypedMessage() throws {
        let r = Received(line: Self.live[1], message: try .init(line: Self.live[1]), at: 0)
        #expect(r.isStroke && r.type == "cancelled" && r.event?.reason == .deviceRemoved)
        #expect(r.device == 3 && r.stroke == 40 && r.trackingId == 21 && r.x == 416 && r.time == 790)
    }
}
