import Foundation
import InputCore
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker

/// What `strokes replay` makes of a device's events as the kernel passes them on
/// (`KernelInputFilter`): the reference a live run through the kernel must match.
struct Expectation {
    /// Stroke events as `strokes replay` prints them.
    var lines: [String]
    /// Strokes still down after the last frame, by replay stroke id.
    var stillActive: [UInt64]
    /// Frames the kernel drops because every event in them repeats a value it already has.
    var framesDropped: Int
    var began: Int { lines.filter { $0.hasPrefix(#"{"type":"began""#) }.count }
    var ended: Int { lines.filter { $0.hasPrefix(#"{"type":"ended""#) }.count }

    /// `hover`: keep hover events, as for a client that subscribes to them.
    init(description: DeviceDescription, events: [InputEvent], hover: Bool = false) throws {
        let filtered = KernelInputFilter.apply(events, description: description)
        framesDropped = events.filter(\.isSynReport).count - filtered.filter(\.isSynReport).count
        let recording = Recording(
            format: .evemu(major: 1, minor: 3), devices: [RecordedDevice(description: description, events: filtered)])
        var replayer = try Replayer(recording: recording)
        let geometry = replayer.devices[0].geometry
        // The guest's client subscribes without `hover`, as every client written before it.
        lines = try replayer.runToEnd().filter { e in
            if case .hover = e.kind { return hover }
            return true
        }.map { $0.json(geometry: geometry) }
        stillActive = replayer.tracker.live.map { $0.id.rawValue }.sorted()
    }
}

/// The recording's frames, each with its `SYN_REPORT` (so that a prefix of them is a recording
/// again), as `FrameAssembler` makes them.
func frames(of recording: Recording) -> [[InputEvent]] {
    var assembler = FrameAssembler()
    return recording.devices[0].events.compactMap { e in
        guard case .frame(let f) = assembler.feed(e) else { return nil }
        return f.events + [InputEvent(time: f.time, type: .syn, code: SynCode.report, value: 0)]
    }
}

/// A stroke (or hover) event reduced to what must be equal between a replay and a live run:
/// everything but the daemon's own numbering (`seq`, `device`), the clock (`time`) and the stroke
/// id, which is replaced by the order in which strokes first appear.
struct Normalizer {
    private var order: [UInt64: UInt64] = [:]

    mutating func normalize(_ line: String) -> String {
        guard var message = try? ServerMessage(line: line) else { return "undecodable: " + line }
        switch message {
        case .stroke(var e):
            e.seq = nil
            e.device = 0
            e.point.time = 0
            let index = order[e.stroke] ?? UInt64(order.count + 1)
            order[e.stroke] = index
            e.stroke = index
            message = .stroke(e)
        case .hover(var h):
            h.device = 0
            h.point.time = 0
            message = .hover(h)
        case .hello, .reply, .error, .snapshot, .deviceAdded, .deviceRemoved, .gesture, .goodbye, .replayEnded, .unknown: break
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(message)).map { String(decoding: $0, as: UTF8.self) } ?? "unencodable: " + line
    }
}

/// Compares two event streams line by line after normalising, naming the first difference.
func compare(expected: [String], actual: [String], what: String) throws {
    var a = Normalizer()
    var b = Normalizer()
    let want = expected.map { a.normalize($0) }
    let got = actual.map { b.normalize($0) }
    for i in 0..<min(want.count, got.count) where want[i] != got[i] {
        throw Failure("\(what): event \(i + 1) differs\n  expected \(want[i])\n  received \(got[i])")
    }
    try check(
        want.count == got.count,
        "\(what): expected \(want.count) stroke events, received \(got.count)"
            + (got.count > want.count ? "; the first extra: \(got[want.count])" : ""))
}

/// Every `began` is followed by exactly one `ended` or `cancelled` and nothing after it.
func checkLifecycles(_ events: [Received], what: String) throws {
    var state: [Int64: String] = [:]
    for e in events {
        guard let id = e.stroke else { continue }
        switch (state[id], e.type) {
        case (nil, "began"), ("began", "moved"), ("moved", "moved"): state[id] = "moved"
        case ("moved", "ended"), ("moved", "cancelled"), ("began", "ended"), ("began", "cancelled"): state[id] = "done"
        default: throw Failure("\(what): stroke \(id): \(e.type) after \(state[id] ?? "nothing"): \(e.line)")
        }
    }
    let open = state.filter { $0.value != "done" }.keys.sorted()
    try check(open.isEmpty, "\(what): strokes \(open) never ended or were cancelled")
}

/// Percentiles of a sample, in the sample's unit.
func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    guard !sorted.isEmpty else { return 0 }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
}
