import InputCore
import MultitouchDecoder
import StrokePipeline
import StrokeRecording
import StrokeTracker

/// Runs a recording through the same pipeline the daemon uses: frame assembly, then each
/// device's `DevicePipeline` (decoder, tracker).
///
/// The recording is read as it is replayed (`RecordingStream`): memory holds one frame per device,
/// not the recording. Frames of several devices (a multi-device libinput recording) are
/// interleaved by time, as they happened (`MergedFrames`). Call `next(into:)` until it returns
/// nil, then `summary`.
public struct Replayer: Sendable {
    /// One device of the recording in the pipeline.
    public struct Device: Sendable {
        public let geometry: DeviceGeometry
        public internal(set) var pipeline: DevicePipeline
        public var id: DeviceID { pipeline.id }
        public var description: DeviceDescription { pipeline.description }
        public var decoder: MultitouchDecoder { pipeline.decoder }
        /// `SYN_REPORT`s processed so far.
        public var frames: UInt64 { pipeline.frames }
    }

    /// What one step produced.
    public struct Step: Sendable {
        public var device: DeviceID
        public var frame: UInt64
        public var time: Timestamp
        public var dropped: Bool
    }

    public private(set) var devices: [Device]
    public private(set) var tracker: StrokeTracker
    public private(set) var summary: ReplaySummary
    private var frames: MergedFrames
    /// A frame's stroke events, before they are appended to the caller's array.
    private var scratch = EventBuffer<StrokeEvent>(capacity: 16)

    /// - Parameters:
    ///   - groups: device groups, as device numbers (1 = the recording's first device): while a
    ///     pen device of a group is in proximity, the group's finger strokes are cancelled and
    ///     new touches are not published (touch arbitration, docs/decoder.md).
    /// - Throws: `DecoderError` when a device of the recording cannot be decoded.
    public init(recording: Recording, historyLimit: Int = 256, groups: [[UInt32]] = []) throws(DecoderError) {
        try self.init(stream: RecordingStream(memory: recording, file: ""), historyLimit: historyLimit, groups: groups)
    }

    /// A replay that reads `stream` as it goes; `groups` as for `init(recording:)`.
    ///
    /// - Throws: `DecoderError` when a device of the recording cannot be decoded.
    public init(stream: RecordingStream, historyLimit: Int = 256, groups: [[UInt32]] = []) throws(DecoderError) {
        var tracker = StrokeTracker(historyLimit: historyLimit)
        var devices: [Device] = []
        for (index, recorded) in stream.devices.enumerated() {
            let geometry = DeviceGeometry(description: recorded.description)
            let pipeline = try DevicePipeline(
                id: DeviceID(UInt32(index + 1)), description: recorded.description, geometry: geometry, tracker: &tracker)
            devices.append(Device(geometry: geometry, pipeline: pipeline))
        }
        for (index, group) in groups.enumerated() {
            for device in group where device >= 1 && Int(device) <= devices.count {
                tracker.setGroup(DeviceID(device), group: UInt32(index + 1))
            }
        }
        self.devices = devices
        self.tracker = tracker
        self.frames = MergedFrames(stream)
        self.summary = ReplaySummary(stream: stream)
    }

    /// Applies a touch-jump setting to every device of the recording (before the first `next`).
    public mutating func setJumps(_ setting: JumpSetting) {
        for d in devices {
            tracker.setJumpDetection(setting.detection(for: d.description.kind), of: d.id)
        }
    }

    /// Processes the next frame (of whichever device's is earliest), appending its stroke events
    /// to `out`. Returns nil when every device is done.
    ///
    /// - Throws: `RecordingError` when the recording has a malformed event line; the frames before
    ///   it have been processed.
    public mutating func next(into out: inout [StrokeEvent]) throws(RecordingError) -> Step? {
        guard let (i, input) = try frames.next() else { return nil }
        let dropped: Bool
        switch input {
        case .frame: dropped = false
        case .dropped: dropped = true
        }
        let start = out.count
        scratch.removeAll()
        devices[i].pipeline.process(input, tracker: &tracker, into: &scratch)
        scratch.withUnsafeBufferPointer { out.append(contentsOf: $0) }
        summary.record(out[start...], time: input.time, frame: !dropped, liveStrokes: tracker.inProgressCount)
        return Step(device: devices[i].id, frame: devices[i].frames, time: input.time, dropped: dropped)
    }

    /// Runs to the end, collecting every event.
    public mutating func runToEnd() throws(RecordingError) -> [StrokeEvent] {
        var out: [StrokeEvent] = []
        while try next(into: &out) != nil {}
        return out
    }

    /// Where each device's events stopped mid-frame (1-based device numbers); complete once
    /// `next(into:)` has returned nil.
    public var truncated: [(device: Int, tail: TruncatedTail)] {
        devices.indices.compactMap { i in frames.stream.truncatedTail(device: i).map { (i + 1, $0) } }
    }

    /// Lines the reader skipped so far.
    public var skippedLines: SkippedLines { frames.stream.skippedLines }

    /// The final summary, with per-device diagnostics.
    public var finalSummary: ReplaySummary {
        var s = summary
        s.stillActive = tracker.inProgressCount
        s.diagnostics = devices.map { ($0.id, $0.pipeline.diagnostics) }
        s.events = frames.stream.eventsRead
        s.truncated = truncated
        s.skippedLines = frames.stream.skippedLines
        return s
    }
}
