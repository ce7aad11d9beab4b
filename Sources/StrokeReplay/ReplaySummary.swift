import InputCore
import MultitouchDecoder
import StrokeRecording
import StrokeTracker

/// Per-recording figures: what `strokes replay --summary` prints.
public struct ReplaySummary: Sendable {
    public var format: RecordingFormat
    public var devices: [(name: String, kind: DeviceKind, touchProtocol: TouchProtocol, slots: Int?)]
    public var events: Int
    public var frames = 0
    public var drops = 0
    public var began = 0
    public var ended = 0
    public var cancelled: [CancelReason: Int] = [:]
    public var moved = 0
    /// Strokes that began at a touch jump (`JumpDetection`).
    public var jumps = 0
    /// `hover` events (pens, and multitouch contacts that report a distance).
    public var hover = 0
    public var stillActive = 0
    public var mostConcurrent = 0
    /// The earliest and latest frame times: a recording's clock can step back (a wall clock
    /// set back while recording), so the first and last are not always them.
    public var earliestTime: Timestamp?
    public var latestTime: Timestamp?
    public var truncated: [(device: Int, tail: TruncatedTail)] = []
    public var diagnostics: [(DeviceID, DecoderDiagnostics)] = []
    /// Lines the reader skipped (a pasted log's prompts, comments among evemu events).
    public var skippedLines = SkippedLines()

    init(stream: RecordingStream) {
        format = stream.format
        devices = stream.devices.map { ($0.description.name, $0.description.kind, $0.description.touchProtocol, $0.description.slotCount) }
        events = 0
    }

    mutating func record(_ events: ArraySlice<StrokeEvent>, time: Timestamp, frame: Bool, liveStrokes: Int) {
        if frame { frames += 1 } else { drops += 1 }
        if earliestTime.map({ time < $0 }) ?? true { earliestTime = time }
        if latestTime.map({ time > $0 }) ?? true { latestTime = time }
        for e in events {
            switch e.kind {
            case .began:
                began += 1
                if e.flags.contains(.jump) { jumps += 1 }
            case .moved: moved += 1
            case .ended: ended += 1
            case .cancelled(let reason): cancelled[reason, default: 0] += 1
            case .hover: hover += 1
            }
        }
        mostConcurrent = max(mostConcurrent, liveStrokes)
    }

    /// Microseconds the frames' times span, from the earliest to the latest: from the first frame
    /// to the last, unless the clock stepped back (then the last minus the first was negative, a
    /// duration no recording has: an adversary's finding).
    public var duration: Int64 {
        guard let earliestTime, let latestTime else { return 0 }
        return latestTime.microseconds - earliestTime.microseconds
    }

    /// Human-readable lines.
    public var lines: [String] {
        var out: [String] = []
        out.append("format: \(format)")
        for (i, d) in devices.enumerated() {
            out.append("device \(i + 1): \(terminalQuoted(d.name)) (\(d.kind.rawValue), \(d.slots.map { "\($0) slots" } ?? (d.touchProtocol == .tool ? "pen" : "single touch")))")
        }
        out.append("events: \(events)")
        out.append("frames: \(frames)")
        if drops > 0 { out.append("drops: \(drops)") }
        out.append("duration: \(Timestamp(microseconds: duration)) s")
        out.append("strokes: \(began)")
        out.append("ended: \(ended)")
        let cancelledTotal = cancelled.values.reduce(0, +)
        let reasons = cancelled.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }
        out.append("cancelled: \(cancelledTotal)" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"))
        if jumps > 0 { out.append("touch jumps: \(jumps) (each ended a stroke and began another)") }
        out.append("still active: \(stillActive)")
        out.append("most concurrent: \(mostConcurrent)")
        out.append("points moved: \(moved)")
        if hover > 0 { out.append("hover events: \(hover)") }
        for (device, diag) in diagnostics {
            for (name, count) in diag.nonZero { out.append("device \(device) \(name): \(count)") }
        }
        if skippedLines.count > 0 {
            out.append("skipped lines: \(skippedLines.count) (first: line \(skippedLines.firstLine ?? 0))")
        }
        for (device, tail) in truncated {
            out.append("device \(device) truncated: \(tail.eventCount) events after the last SYN_REPORT (from line \(tail.line)) were not applied")
        }
        return out
    }
}
