import InputCore

/// The events of the frame being read, counted against `RecordingLimits.maxFrameEvents`: every
/// reader feeds it each event as it reads it (the streamed formats one line at a time, the YAML
/// reader its whole list), so the bound and its message are the same in every format.
struct FrameLengthCheck: Sendable {
    /// The line of the frame's first event; nil right after a `SYN_REPORT` or `SYN_DROPPED`.
    private(set) var firstLine: Int?
    /// Events since then.
    private(set) var count = 0

    /// Counts `event`, read at `line`; throws at the frame's first line when the frame has grown
    /// past the bound.
    mutating func note(_ event: InputEvent, line: Int, file: String) throws(RecordingError) {
        guard !event.closesFrame else {
            firstLine = nil
            count = 0
            return
        }
        if firstLine == nil { firstLine = line }
        count += 1
        if count > RecordingLimits.maxFrameEvents {
            throw RecordingError(file: file, line: firstLine, message: RecordingLimits.frameTooLong)
        }
    }
}
