import InputCore
import Logging
import MultitouchDecoder
import StrokeTracker

/// What the daemon logs of the decoders' diagnostics (`DecoderDiagnostic`), rate-limited per
/// device and kind: at most `burst` lines per `interval` (5 an hour), the last of them saying that
/// more are suppressed; the counters in `stats` go on counting them all. Kernel and device bugs
/// are warnings prefixed "kernel bug:", ours "strokes bug:" (libinput's `evdev_log_bug_kernel`,
/// `evdev_log_bug_libinput`); the rest (lost events, a palm) are notices. Pure: the caller passes
/// the time and writes the lines.
public struct DiagnosticLog: Sendable {
    public struct Line: Hashable, Sendable {
        public var level: Logger.Level
        public var message: String
        public var kind: DecoderDiagnostic.Kind
    }

    public static let interval: Int64 = 3_600_000_000  // an hour, in µs
    public static let burst = 5

    private var limits: [Key: RateLimit] = [:]

    private struct Key: Hashable, Sendable {
        var device: DeviceID
        var kind: DecoderDiagnostic.Kind
    }

    public init() {}

    /// The lines to log for `diagnostic` of `device` (called `name`) at `now` (monotonic µs):
    /// none once the kind's burst is spent, two at the threshold. Codes are named by `naming`.
    public mutating func lines(
        for diagnostic: DecoderDiagnostic, device: DeviceID, name: String, at now: Int64,
        naming: (EventType, UInt16) -> String
    ) -> [Line] {
        let kind = diagnostic.kind
        let verdict = limits[Key(device: device, kind: kind), default: RateLimit(intervalMicroseconds: DiagnosticLog.interval, burst: DiagnosticLog.burst)]
            .test(at: now)
        let level: Logger.Level
        let prefix: String
        switch diagnostic.origin {
        case .kernel:
            level = .warning
            prefix = "kernel bug: "
        case .strokes:
            level = .warning
            prefix = "strokes bug: "
        case .notice:
            level = .notice
            prefix = ""
        }
        let line = Line(level: level, message: "\(prefix)device \(device) '\(name)': \(diagnostic.message(naming: naming))", kind: kind)
        switch verdict {
        case .pass:
            return [line]
        case .threshold:
            let more = Line(
                level: level,
                message: "device \(device) '\(name)': \(DiagnosticLog.burst) '\(kind.rawValue)' messages within an hour; further ones suppressed for the rest of it (stats counts them)",
                kind: kind)
            return [line, more]
        case .exceeded:
            return []
        }
    }
}
