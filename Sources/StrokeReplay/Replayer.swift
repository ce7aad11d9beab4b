import InputCore
import MultitouchDecoder
import StrokeRecording
import StrokeTracker

/// Runs a recording through the same pipeline the daemon uses: frame assembly, decoder, tracker.
///
/// Frames of several devices (a multi-device libinput recording) are interleaved by time, as
/// they happened. Call `next(into:)` until it returns nil, then `summary`.
public struct Replayer: Sendable {
    /// One device of the recording in the pipeline.
    public struct Device: Sendable {
        public let id: DeviceID
        public let recorded: RecordedDevice
        public let geometry: DeviceGeometry
        public internal(set) var decoder: MultitouchDecoder
        /// `SYN_REPORT`s processed so far.
        public internal(set) var frames: UInt64 = 0
        var inputs: [FrameInput]
        var cursor = 0
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
    private var contactBuffer: [ContactEvent] = []

    /// - Parameters:
    ///   - groups: device groups, as device numbers (1 = the recording's first device): while a
    ///     pen device of a group is in proximity, the group's finger strokes are cancelled and
    ///     new touches are not published (touch arbitration, docs/decoder.md).
    /// - Throws: `DecoderError` when a device of the recording cannot be decoded.
    public init(recording: Recording, historyLimit: Int = 256, groups: [[UInt32]] = []) throws(DecoderError) {
        var tracker = StrokeTracker(historyLimit: historyLimit)
        var devices: [Device] = []
        for (index, recorded) in recording.devices.enumerated() {
            let id = DeviceID(UInt32(index + 1))
            let decoder = try MultitouchDecoder(description: recorded.description)
            let geometry = DeviceGeometry(description: recorded.description)
            tracker.addDevice(id, geometry: geometry)
            var assembler = FrameAssembler()
            var inputs: [FrameInput] = []
            inputs.reserveCapacity(recorded.events.count / 4)
            for event in recorded.events {
                if let input = assembler.feed(event) { inputs.append(input) }
            }
            devices.append(Device(id: id, recorded: recorded, geometry: geometry, decoder: decoder, inputs: inputs))
        }
        for (index, group) in groups.enumerated() {
            for device in group where device >= 1 && Int(device) <= devices.count {
                tracker.setGroup(DeviceID(device), group: UInt32(index + 1))
            }
        }
        self.devices = devices
        self.tracker = tracker
        self.summary = ReplaySummary(recording: recording)
    }

    /// Applies a touch-jump setting to every device of the recording (before the first `next`).
    public mutating func setJumps(_ setting: JumpSetting) {
        for d in devices {
            tracker.setJumpDetection(setting.detection(for: d.recorded.description.kind), of: d.id)
        }
    }

    /// Processes the next frame (of whichever device's is earliest), appending its stroke events
    /// to `out`. Returns nil when every device is done.
    public mutating func next(into out: inout [StrokeEvent]) -> Step? {
        var best: Int?
        var bestTime = Timestamp(microseconds: .max)
        for (i, d) in devices.enumerated() where d.cursor < d.inputs.count {
            let t = d.inputs[d.cursor].time
            if best == nil || t < bestTime {
                best = i
                bestTime = t
            }
        }
        guard let i = best else { return nil }
        let input = devices[i].inputs[devices[i].cursor]
        devices[i].cursor += 1
        let dropped: Bool
        switch input {
        case .frame:
            devices[i].frames += 1
            dropped = false
        case .dropped:
            dropped = true
        }
        contactBuffer.removeAll(keepingCapacity: true)
        devices[i].decoder.process(input, into: &contactBuffer)
        let start = out.count
        tracker.apply(contactBuffer, device: devices[i].id, frame: devices[i].frames, into: &out)
        summary.record(out[start...], time: input.time, frame: !dropped, liveStrokes: tracker.inProgress.count)
        return Step(device: devices[i].id, frame: devices[i].frames, time: input.time, dropped: dropped)
    }

    /// Runs to the end, collecting every event.
    public mutating func runToEnd() -> [StrokeEvent] {
        var out: [StrokeEvent] = []
        while next(into: &out) != nil {}
        return out
    }

    /// The final summary, with per-device diagnostics.
    public var finalSummary: ReplaySummary {
        var s = summary
        s.stillActive = tracker.inProgress.count
        s.diagnostics = devices.map { ($0.id, $0.decoder.diagnostics) }
        return s
    }
}
