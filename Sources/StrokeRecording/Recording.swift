import InputCore

/// A recording file: one or more devices, each with its description and its timed events.
public struct Recording: Sendable {
    public var format: RecordingFormat
    public var devices: [RecordedDevice]
    /// Lines the reader skipped (`SkippedLines`).
    public var skippedLines: SkippedLines

    public init(format: RecordingFormat, devices: [RecordedDevice], skippedLines: SkippedLines = SkippedLines()) {
        self.format = format
        self.devices = devices
        self.skippedLines = skippedLines
    }
}

/// One device of a recording.
public struct RecordedDevice: Sendable {
    public var description: DeviceDescription
    /// The device node it was recorded from, when the file says.
    public var node: String?
    /// The events in file order, `SYN_REPORT`s included.
    public var events: [InputEvent]
    /// Events after the last `SYN_REPORT`, which a replay cannot apply: the recording was cut off
    /// mid-frame. Nil when the last event is a `SYN_REPORT`.
    public var truncatedTail: TruncatedTail?

    public init(description: DeviceDescription, node: String? = nil, events: [InputEvent], truncatedTail: TruncatedTail? = nil) {
        self.description = description
        self.node = node
        self.events = events
        self.truncatedTail = truncatedTail
    }
}

/// Where a recording was cut off in the middle of a frame.
public struct TruncatedTail: Hashable, Sendable {
    /// How many events follow the last `SYN_REPORT` (or `SYN_DROPPED`).
    public var eventCount: Int
    /// The 1-based line of the first of them.
    public var line: Int

    public init(eventCount: Int, line: Int) {
        self.eventCount = eventCount
        self.line = line
    }
}

/// The file formats strokes reads.
public enum RecordingFormat: Hashable, Sendable, CustomStringConvertible {
    /// `evemu-record` output; the version from the `# EVEMU x.y` line (1.0 when absent).
    case evemu(major: Int, minor: Int)
    /// `libinput record` YAML, `version: 1`.
    case libinputRecord
    /// `evtest` text output.
    case evtest

    public var description: String {
        switch self {
        case .evemu(let major, let minor): return "evemu \(major).\(minor)"
        case .libinputRecord: return "libinput-record"
        case .evtest: return "evtest"
        }
    }
}

extension RecordedDevice {
    /// Computes `truncatedTail` from the events and their source lines.
    static func tail(of events: [InputEvent], lines: [Int]) -> TruncatedTail? {
        guard let lastSyn = events.lastIndex(where: { $0.closesFrame }) else {
            return events.isEmpty ? nil : TruncatedTail(eventCount: events.count, line: lines.first ?? 0)
        }
        let count = events.count - lastSyn - 1
        return count > 0 ? TruncatedTail(eventCount: count, line: lines[lastSyn + 1]) : nil
    }
}
