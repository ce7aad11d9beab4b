import InputCore

import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Lines a reader skipped: in an evtest log, anything evtest does not print (a shell prompt, `^C`,
/// a wrapper's messages); in an evemu file, blank and comment lines among the events.
public struct SkippedLines: Hashable, Sendable {
    public private(set) var count = 0
    /// The 1-based line of the first one.
    public private(set) var firstLine: Int?

    public init() {}

    mutating func add(line: Int) {
        count += 1
        if firstLine == nil { firstLine = line }
    }
}

/// A recording read event by event: the header is read and checked when the stream is opened, the
/// events as they are asked for, so memory does not grow with the recording's length (evemu and
/// evtest files; a libinput YAML recording is parsed whole, as YAML needs).
///
/// A malformed event line is thrown from `next(device:)` when it is reached, with `file:line`;
/// the events before it have been returned.
public struct RecordingStream: Sendable {
    /// One device of the recording, as its header describes it.
    public struct Device: Sendable {
        public var description: DeviceDescription
        /// The device node it was recorded from, when the file says.
        public var node: String?
    }

    public let format: RecordingFormat
    public let file: String
    public let devices: [Device]
    private var source: Source
    /// Per device, the next event to read from memory (`Source.memory`).
    private var cursors: [Int] = []
    /// Events returned so far, all devices.
    public private(set) var eventsRead = 0

    private enum Source: Sendable {
        case memory(events: [[InputEvent]], tails: [TruncatedTail?])
        case lines(LineEvents)
    }

    /// Opens the file at `path` (`-` is standard input) and reads its header.
    public static func open(path: String) throws(RecordingError) -> RecordingStream {
        let handle = try OpenFile(path: path)
        var prefix: [UInt8] = []
        // Enough to detect the format (detectFormat looks at the first 64 non-empty lines).
        while prefix.count < LineReader.chunkSize, let chunk = try handle.read(LineReader.chunkSize - prefix.count) {
            prefix += chunk
        }
        let format = RecordingReader.detectFormat(prefix)
        switch format {
        case .libinputRecord:
            while let chunk = try handle.read(1 << 20) { prefix += chunk }
            return try RecordingStream(memory: LibinputRecordReader.read(prefix, file: path), file: path)
        case .evemu, .evtest:
            return try RecordingStream(lines: LineReader(fd: handle.fd, prefix: prefix, file: path), format: format, handle: handle)
        }
    }

    /// The recording in `bytes`, naming `file` in errors; its format is detected from the content
    /// unless `format` says it.
    public static func read(_ bytes: [UInt8], file: String, format: RecordingFormat? = nil) throws(RecordingError) -> RecordingStream {
        let format = format ?? RecordingReader.detectFormat(bytes)
        switch format {
        case .libinputRecord:
            return RecordingStream(memory: try LibinputRecordReader.read(bytes, file: file), file: file)
        case .evemu, .evtest:
            return try RecordingStream(lines: LineReader(bytes: bytes, file: file), format: format, handle: nil)
        }
    }

    /// A stream over a recording already in memory.
    public init(memory recording: Recording, file: String) {
        format = recording.format
        self.file = file
        devices = recording.devices.map { Device(description: $0.description, node: $0.node) }
        source = .memory(events: recording.devices.map(\.events), tails: recording.devices.map(\.truncatedTail))
        cursors = Array(repeating: 0, count: recording.devices.count)
    }

    private init(lines reader: LineReader, format: RecordingFormat, handle: OpenFile?) throws(RecordingError) {
        var reader = reader
        var skipped = SkippedLines()
        let description: DeviceDescription
        let actual: RecordingFormat
        switch format {
        case .evtest:
            description = try EvtestReader.readHeader(&reader, skipped: &skipped)
            actual = .evtest
        case .evemu, .libinputRecord:
            (actual, description) = try EvemuReader.readHeader(&reader)
        }
        self.format = actual
        file = reader.file
        devices = [Device(description: description)]
        source = .lines(LineEvents(reader: reader, evtest: actual == .evtest, skipped: skipped, handle: handle))
    }

    /// The next event of device `device` (0-based) in file order, or nil after its last.
    ///
    /// - Throws: `RecordingError` at a malformed event line.
    public mutating func next(device: Int) throws(RecordingError) -> InputEvent? {
        switch source {
        case .memory(let events, _):
            guard cursors[device] < events[device].count else { return nil }
            let event = events[device][cursors[device]]
            cursors[device] += 1
            eventsRead += 1
            return event
        case .lines(var lines):
            source = .memory(events: [], tails: [])  // Keeps `lines` uniquely referenced.
            defer { source = .lines(lines) }
            let event = try lines.next()
            if event != nil { eventsRead += 1 }
            return event
        }
    }

    /// Where device `device`'s events stopped mid-frame; known once its events are all read.
    public func truncatedTail(device: Int) -> TruncatedTail? {
        switch source {
        case .memory(_, let tails): return tails[device]
        case .lines(let lines): return lines.tail
        }
    }

    /// The lines skipped so far.
    public var skippedLines: SkippedLines {
        switch source {
        case .memory: return SkippedLines()
        case .lines(let lines): return lines.skipped
        }
    }

    /// Reads every remaining event into a `Recording`.
    public mutating func collect() throws(RecordingError) -> Recording {
        var out: [RecordedDevice] = []
        for (index, device) in devices.enumerated() {
            var events: [InputEvent] = []
            while let event = try next(device: index) { events.append(event) }
            out.append(RecordedDevice(description: device.description, node: device.node, events: events, truncatedTail: truncatedTail(device: index)))
        }
        return Recording(format: format, devices: out, skippedLines: skippedLines)
    }
}

/// The event lines of an evemu or evtest file, parsed as they are read.
private struct LineEvents: Sendable {
    var reader: LineReader
    let evtest: Bool
    var skipped: SkippedLines
    /// Keeps the file open while lines are read from it.
    let handle: OpenFile?
    /// The frame being read: its first line and length (`tail`), and the bound on it.
    private var frame = FrameLengthCheck()

    init(reader: LineReader, evtest: Bool, skipped: SkippedLines, handle: OpenFile?) {
        self.reader = reader
        self.evtest = evtest
        self.skipped = skipped
        self.handle = handle
    }

    var tail: TruncatedTail? {
        frame.firstLine.map { TruncatedTail(eventCount: frame.count, line: $0) }
    }

    mutating func next() throws(RecordingError) -> InputEvent? {
        while let line = try reader.nextLine() {
            let parsed: EvemuReader.EventLine
            if evtest {
                parsed = EvtestReader.eventLine(Substring(reader.string(line)))
            } else {
                parsed = reader.buffer.withUnsafeBufferPointer { EvemuReader.eventLine($0, line) }
            }
            switch parsed {
            case .event(let event):
                try frame.note(event, line: reader.lineNumber, file: reader.file)
                return event
            case .skipped:
                skipped.add(line: reader.lineNumber)
            case .malformed(let message):
                throw RecordingError(file: reader.file, line: reader.lineNumber, message: message)
            }
        }
        return nil
    }
}

/// An open file descriptor, closed when the last reference goes.
final class OpenFile: Sendable {
    let fd: Int32
    let path: String

    init(path: String) throws(RecordingError) {
        do {
            fd = path == "-" ? 0 : try Syscall.retrying { FileName.withCString(path) { Glibc.open($0, O_RDONLY | O_CLOEXEC) } }
        } catch {
            throw RecordingError(file: path, line: nil, message: "cannot open: \(error)")
        }
        self.path = path
    }

    deinit { if fd != 0 { try? Syscall.closeDescriptor(fd) } }  // read-only: a failed close loses nothing

    /// Up to `count` bytes, or nil at the end of the file.
    func read(_ count: Int) throws(RecordingError) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: count)
        let n: Int
        do {
            n = try Syscall.retrying { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, count) } }
        } catch {
            throw RecordingError(file: path, line: nil, message: "cannot read: \(error)")
        }
        if n == 0 { return nil }
        chunk.removeSubrange(n...)
        return chunk
    }
}
