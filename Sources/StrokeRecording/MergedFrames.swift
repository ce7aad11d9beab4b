import InputCore

/// A recording's frames, every device's merged by time as they happened: the one merge behind
/// `strokes replay`, `strokes render` and the daemon's `--replay`.
///
/// Reads ahead one frame per device (`RecordingStream` reads the file as it goes, so memory holds
/// one frame per device, not the recording). The earliest pending frame goes first; on equal
/// times, the device that comes first in the recording.
public struct MergedFrames: Sendable {
    /// The stream read from: skipped lines, events read, truncated tails.
    public private(set) var stream: RecordingStream
    private var assemblers: [FrameAssembler]
    /// Per device, its next frame, read ahead; nil when not read yet or once its events end.
    private var pending: [FrameInput?]
    private var finished: [Bool]

    public init(_ stream: RecordingStream) {
        self.stream = stream
        assemblers = Array(repeating: FrameAssembler(), count: stream.devices.count)
        pending = Array(repeating: nil, count: stream.devices.count)
        finished = Array(repeating: false, count: stream.devices.count)
    }

    /// The next frame (or drop marker) of whichever device's is earliest, with that device's
    /// index in the recording (0-based); nil once every device's events are read.
    ///
    /// - Throws: `RecordingError` at a malformed event line; the frames before it were returned.
    public mutating func next() throws(RecordingError) -> (device: Int, input: FrameInput)? {
        var best: Int?
        var bestTime = Timestamp(microseconds: .max)
        for i in pending.indices {
            try fill(i)
            guard let t = pending[i]?.time else { continue }
            if best == nil || t < bestTime {
                best = i
                bestTime = t
            }
        }
        guard let i = best, let input = pending[i] else { return nil }
        pending[i] = nil
        return (i, input)
    }

    /// Reads device `i`'s next frame into `pending`, unless it has one or its events ended.
    private mutating func fill(_ i: Int) throws(RecordingError) {
        while pending[i] == nil && !finished[i] {
            guard let event = try stream.next(device: i) else {
                finished[i] = true
                return
            }
            pending[i] = assemblers[i].feed(event)
        }
    }
}
