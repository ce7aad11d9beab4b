import GestureRecognizer
import InputCore
import MultitouchDecoder
import NIOCore
import StrokePipeline
import StrokeProtocol
import StrokeTracker

/// The daemon's pipeline state for every device: a `DevicePipeline` each, the stroke tracker
/// they share, sequence numbers and the resume buffer. Pure, like the pipelines it drives: frames
/// in, numbered messages out; the caller does the I/O and owns the clock.
public struct Hub: Sendable {
    struct Device: Sendable {
        var info: DeviceInfo
        var pipeline: DevicePipeline
    }

    public private(set) var tracker: StrokeTracker
    private var devices = DeviceTable<Device>()
    private var nextDevice: UInt32 = 1
    /// Device group keys and the tracker's numbers for them.
    private var groupNumbers: [String: UInt32] = [:]
    /// The last sequence number handed out.
    public private(set) var seq: UInt64 = 0
    /// The most recent messages, for clients that resume.
    private var recent: BoundedHistory<Broadcast>
    private var strokeEvents = EventBuffer<StrokeEvent>()
    /// A gesture recogniser per device, after the tracker (docs/gestures.md).
    private var gestures = GestureRecognizers()
    private var gestureSteps: [Gesture] = []
    /// Whether gesture steps are encoded and published: false while no client takes them (the
    /// daemon keeps it up to date), so the hot path pays only for the recognisers then.
    public var encodesGestures = true
    /// Reused for every stroke event: encoding allocates only the frame's buffer of lines.
    private var writer = JSONWriter(capacity: 1024)
    /// Where each line of the frame being published lies in its buffer (reused).
    private var lines: [Line] = []
    private struct Line {
        var start: Int
        var length: Int
        var mergedOffset: Int?
    }
    /// Bytes reserved per stroke event line (most are 150 to 220).
    private static let lineEstimate = 256
    public private(set) var framesProcessed: UInt64 = 0
    /// What the decoders met since `clearReports()`, the first of each kind per frame, for the
    /// daemon to log; at most `reportLimit` (the counters in `diagnostics(of:)` count them all).
    public private(set) var reports: [(device: DeviceID, diagnostic: DecoderDiagnostic)] = []
    static let reportLimit = 256

    public init(historyLimit: Int, resumeLimit: Int) {
        tracker = StrokeTracker(historyLimit: historyLimit)
        recent = BoundedHistory(capacity: resumeLimit)
    }

    public var deviceInfos: [DeviceInfo] { devices.all.map(\.info).sorted { $0.id < $1.id } }

    public func device(_ id: DeviceID) -> DeviceInfo? { devices.index(of: id).map { devices[$0].info } }

    /// Adds a device; its id is never reused. Contacts already down are adopted with `seed`.
    /// Devices with the same `group` key (`DeviceGroup`) are one hardware: a pen of the group in
    /// proximity cancels the others' finger strokes unless `arbitration` is off for them.
    public mutating func addDevice(
        path: String, description: DeviceDescription, calibration: Calibration = .identity, group: String? = nil,
        arbitration: Bool = true, jumps: JumpSetting = .deviceDefault, gestures gestureConfiguration: GestureConfiguration = .init()
    ) throws(DecoderError) -> (DeviceID, Broadcast) {
        let id = DeviceID(nextDevice)
        var geometry = DeviceGeometry(description: description)
        geometry.calibration = calibration
        geometry.jumpDetection = jumps.detection(for: description.kind)
        let pipeline = try DevicePipeline(id: id, description: description, geometry: geometry, tracker: &tracker)
        nextDevice += 1
        let info = DeviceInfo(id: id, path: path, description: description, geometry: geometry)
        devices[id: id] = Device(info: info, pipeline: pipeline)
        gestures.add(id, geometry: geometry, kind: description.kind, configuration: gestureConfiguration)
        if let group {
            let number = groupNumbers[group] ?? UInt32(groupNumbers.count + 1)
            groupNumbers[group] = number
            tracker.setGroup(id, group: number, arbitration: arbitration)
        }
        var w = JSONWriter()
        w.field("type", "deviceAdded")
        w.field("seq", seq + 1)
        DeviceJSON.write(info, into: &w)
        return (id, publish(.deviceAdded, device: id, line: w.finish()))
    }

    /// Replaces a device's calibration; points from now on use it.
    public mutating func setCalibration(_ device: DeviceID, _ calibration: Calibration) {
        guard let i = devices.index(of: device) else { return }
        devices[i].info.geometry.calibration = calibration
        tracker.setCalibration(calibration, of: device)
    }

    /// Decodes one frame (or drop marker) of `device`, appending the messages to `out`.
    public mutating func process(_ input: FrameInput, device: DeviceID, into out: inout [Broadcast]) {
        process(device, counting: input.isFrame, into: &out) { $0.process(input, tracker: &$1, into: &$2) }
    }

    /// The same for a frame read in place (`FrameAssembler.feed(_:_:)`): a live device's read.
    public mutating func process(_ input: FrameViewInput, device: DeviceID, into out: inout [Broadcast]) {
        process(device, counting: input.isFrame, into: &out) { $0.process(input, tracker: &$1, into: &$2) }
    }

    /// Decodes a state report of `device` (libevdev's resync, or the seed of a device just opened).
    public mutating func process(_ frame: Frame, origin: FrameOrigin, device: DeviceID, into out: inout [Broadcast]) {
        process(device, counting: false, into: &out) { $0.process(frame, origin: origin, tracker: &$1, into: &$2) }
    }

    /// Cancels the device's strokes (`deviceRemoved`) and forgets it.
    public mutating func removeDevice(_ device: DeviceID, time: Timestamp?, into out: inout [Broadcast]) {
        guard let i = devices.index(of: device) else { return }
        strokeEvents.removeAll()
        devices[i].pipeline.cancelAll(reason: .deviceRemoved, time: time, tracker: &tracker, into: &strokeEvents)
        publishStrokeEvents(device: device, at: i, into: &out)
        recogniseGestures(device: device, at: i, into: &out)
        gestures.remove(device)
        devices[id: device] = nil
        var w = JSONWriter()
        w.field("type", "deviceRemoved")
        w.field("seq", seq + 1)
        w.field("device", device.rawValue)
        out.append(publish(.deviceRemoved, device: device, line: w.finish()))
    }

    /// Starts `device` over as when it was added (`DevicePipeline.restart`): a looped replay's
    /// next round. Its strokes in progress are cancelled (`replayRestarted`).
    public mutating func restartDevice(_ device: DeviceID, into out: inout [Broadcast]) {
        guard let i = devices.index(of: device) else { return }
        strokeEvents.removeAll()
        devices[i].pipeline.restart(reason: .replayRestarted, time: nil, tracker: &tracker, into: &strokeEvents)
        publishStrokeEvents(device: device, at: i, into: &out)
        recogniseGestures(device: device, at: i, into: &out)
    }

    /// Cancels every stroke in progress with `reason` (the daemon stops).
    public mutating func cancelAll(reason: CancelReason, time: Timestamp?, into out: inout [Broadcast]) {
        for id in devices.devices.sorted() {
            let i = devices.index(of: id)!
            strokeEvents.removeAll()
            devices[i].pipeline.cancelAll(reason: reason, time: time, tracker: &tracker, into: &strokeEvents)
            publishStrokeEvents(device: id, at: i, into: &out)
            recogniseGestures(device: id, at: i, into: &out)
        }
    }

    /// When `advanceGestures(device:to:)` must be called if no frame of `device` comes first (a
    /// hold's timeout), in the device's clock; nil when nothing waits for time to pass.
    public func gestureDeadline(of device: DeviceID) -> Timestamp? { gestures.deadline(of: device) }

    /// Time passed on `device` with no frame (the daemon's timer): fires a hold that is due.
    public mutating func advanceGestures(device: DeviceID, to time: Timestamp, into out: inout [Broadcast]) {
        guard devices.contains(device) else { return }
        gestureSteps.removeAll(keepingCapacity: true)
        gestures.advance(device, to: time, into: &gestureSteps)
        publish(gestureSteps, device: device, into: &out)
    }

    /// The time of `device`'s last frame, drop marker or state report.
    public func lastTime(of device: DeviceID) -> Timestamp? { devices.index(of: device).map { devices[$0].pipeline.lastTime } }

    /// The messages after `after`, when the buffer still holds all of them; nil when the gap is
    /// too old (or `after` is not a sequence number of this instance).
    public func resume(after: UInt64) -> [Broadcast]? {
        guard after <= seq else { return nil }
        if after == seq { return [] }
        guard let first = recent.first, first.seq <= after + 1 else { return nil }
        return Array(recent[Int(after + 1 - first.seq)...])
    }

    /// The decoder's counters for `device` (`stats`), nil for a device not (or no longer) added.
    public func diagnostics(of device: DeviceID) -> DecoderDiagnostics? { devices.index(of: device).map { devices[$0].pipeline.diagnostics } }

    /// Forgets the reports (once logged).
    public mutating func clearReports() { reports.removeAll(keepingCapacity: true) }

    /// The oldest sequence number a client can resume after.
    public var oldestResumable: UInt64 { recent.first.map { $0.seq - 1 } ?? seq }

    // MARK: -

    /// Runs `decode` on the device's pipeline (reporting whether the decoder reported something),
    /// then publishes its stroke events and the gesture steps they make. `counting`: a frame of
    /// the device's stream (`framesProcessed`), not a drop marker or state report.
    private mutating func process(
        _ device: DeviceID, counting: Bool, into out: inout [Broadcast],
        _ decode: (inout DevicePipeline, inout StrokeTracker, inout EventBuffer<StrokeEvent>) -> Bool
    ) {
        guard let i = devices.index(of: device) else { return }
        if counting { framesProcessed += 1 }
        strokeEvents.removeAll()
        let reported = decode(&devices[i].pipeline, &tracker, &strokeEvents)
        publishStrokeEvents(device: device, at: i, into: &out)
        recogniseGestures(device: device, at: i, into: &out)
        if reported { collectReports(device, at: i) }
    }

    /// Feeds the stroke events just published to the gesture recognisers, publishing their steps
    /// after them.
    private mutating func recogniseGestures(device: DeviceID, at i: Int, into out: inout [Broadcast]) {
        gestureSteps.removeAll(keepingCapacity: true)
        let time = devices[i].pipeline.lastTime
        strokeEvents.withUnsafeBufferPointer { gestures.process($0, device: device, time: time, into: &gestureSteps) }
        publish(gestureSteps, device: device, into: &out)
    }

    /// Encodes gesture steps. Like hover, not numbered (a client without `gesture` sees gapless
    /// sequence numbers) and not kept for resuming.
    private mutating func publish(_ steps: [Gesture], device: DeviceID, into out: inout [Broadcast]) {
        guard encodesGestures else { return }
        for g in steps {
            g.encode(into: &writer)
            out.append(Broadcast(seq: seq, kind: .gesture, device: g.device, bytes: lineBuffer()))
        }
    }

    private mutating func collectReports(_ device: DeviceID, at i: Int) {
        for r in devices[i].pipeline.reports where reports.count < Hub.reportLimit { reports.append((device, r)) }
    }

    /// Numbers and encodes the stroke events of `device`. Their lines share one buffer (one
    /// allocation per frame, not one per message); each message holds its line's slice.
    private mutating func publishStrokeEvents(device: DeviceID, at i: Int, into out: inout [Broadcast]) {
        // A copy of the buffer (its storage retained, not copied) to read while `self` changes.
        let events = strokeEvents
        events.withUnsafeBufferPointer { publish($0, device: device, at: i, into: &out) }
    }

    private mutating func publish(
        _ events: UnsafeBufferPointer<StrokeEvent>, device: DeviceID, at i: Int, into out: inout [Broadcast]
    ) {
        guard !events.isEmpty else { return }
        let geometry = devices[i].info.geometry
        var buffer = ByteBufferAllocator().buffer(capacity: events.count * Hub.lineEstimate)
        lines.removeAll(keepingCapacity: true)
        var numbered = seq
        for e in events {
            // Hover is transient like pointer motion: not numbered (so the sequence numbers a
            // client without `hover` sees stay gapless) and not kept for resuming.
            let lineSeq: UInt64?
            if case .hover = e.kind {
                lineSeq = nil
            } else {
                numbered += 1
                lineSeq = numbered
            }
            let offset = e.encode(geometry: geometry, seq: lineSeq, into: &writer)
            let start = buffer.writerIndex
            writer.withBytes { _ = buffer.writeBytes($0) }
            buffer.writeInteger(UInt8(ascii: "\n"))
            lines.append(Line(start: start, length: buffer.writerIndex - start, mergedOffset: offset))
        }
        for (e, line) in zip(events, lines) {
            let bytes = buffer.getSlice(at: line.start, length: line.length)!
            if case .hover = e.kind {
                out.append(Broadcast(seq: seq, kind: .stroke(StrokeHeader(e)), device: device, bytes: bytes, mergedOffset: line.mergedOffset))
                continue
            }
            out.append(publish(Broadcast(seq: seq + 1, kind: .stroke(StrokeHeader(e)), device: device, bytes: bytes, mergedOffset: line.mergedOffset)))
        }
    }

    /// The writer's finished object and a newline, in a buffer of their own.
    private func lineBuffer() -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: writer.byteCount + 1)
        writer.withBytes { _ = buffer.writeBytes($0) }
        buffer.writeInteger(UInt8(ascii: "\n"))
        return buffer
    }

    private mutating func publish(_ kind: Broadcast.Kind, device: DeviceID, line: String) -> Broadcast {
        publish(Broadcast(seq: seq + 1, kind: kind, device: device, line: line))
    }

    /// Numbers `b` (its `seq` is already the next one) and keeps it for resuming.
    private mutating func publish(_ b: Broadcast) -> Broadcast {
        seq += 1
        recent.append(b)
        return b
    }
}

extension FrameInput {
    var isFrame: Bool {
        switch self {
        case .frame: return true
        case .dropped: return false
        }
    }
}

extension FrameViewInput {
    var isFrame: Bool {
        switch self {
        case .frame: return true
        case .dropped: return false
        }
    }
}
