import InputCore
import MultitouchDecoder
import StrokeProtocol
import StrokeTracker

/// The daemon's pipeline state for every device: decoders, the stroke tracker, sequence numbers
/// and the resume buffer. Pure, like the decoder and tracker it drives: frames in, numbered
/// messages out; the caller does the I/O and owns the clock.
public struct Hub: Sendable {
    struct Device: Sendable {
        var info: DeviceInfo
        var decoder: MultitouchDecoder
        var frames: UInt64 = 0
        var lastTime = Timestamp.zero
    }

    public private(set) var tracker: StrokeTracker
    private var devices: [DeviceID: Device] = [:]
    private var nextDevice: UInt32 = 1
    /// Device group keys and the tracker's numbers for them.
    private var groupNumbers: [String: UInt32] = [:]
    /// The last sequence number handed out.
    public private(set) var seq: UInt64 = 0
    /// The most recent messages, for clients that resume.
    private var recent: BoundedHistory<Broadcast>
    private var contacts: [ContactEvent] = []
    private var strokeEvents: [StrokeEvent] = []
    public private(set) var framesProcessed: UInt64 = 0

    public init(historyLimit: Int, resumeLimit: Int) {
        tracker = StrokeTracker(historyLimit: historyLimit)
        recent = BoundedHistory(capacity: resumeLimit)
    }

    public var deviceInfos: [DeviceInfo] { devices.values.map(\.info).sorted { $0.id < $1.id } }

    public func device(_ id: DeviceID) -> DeviceInfo? { devices[id]?.info }

    /// Adds a device; its id is never reused. Contacts already down are adopted with `seed`.
    /// Devices with the same `group` key (`DeviceGroup`) are one hardware: a pen of the group in
    /// proximity cancels the others' finger strokes unless `arbitration` is off for them.
    public mutating func addDevice(
        path: String, description: DeviceDescription, calibration: Calibration = .identity, group: String? = nil,
        arbitration: Bool = true, jumps: JumpSetting = .deviceDefault
    ) throws(DecoderError) -> (DeviceID, Broadcast) {
        let decoder = try MultitouchDecoder(description: description)
        let id = DeviceID(nextDevice)
        nextDevice += 1
        var geometry = DeviceGeometry(description: description)
        geometry.calibration = calibration
        geometry.jumpDetection = jumps.detection(for: description.kind)
        let info = DeviceInfo(id: id, path: path, description: description, geometry: geometry)
        devices[id] = Device(info: info, decoder: decoder)
        tracker.addDevice(id, geometry: geometry)
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
        guard var d = devices[device] else { return }
        d.info.geometry.calibration = calibration
        devices[device] = d
        tracker.setCalibration(calibration, of: device)
    }

    /// Decodes one frame (or drop marker) of `device`, appending the messages to `out`.
    public mutating func process(_ input: FrameInput, device: DeviceID, into out: inout [Broadcast]) {
        guard devices[device] != nil else { return }
        contacts.removeAll(keepingCapacity: true)
        devices[device]!.decoder.process(input, into: &contacts)
        switch input {
        case .frame(let f):
            devices[device]!.frames += 1
            devices[device]!.lastTime = f.time
            framesProcessed += 1
        case .dropped(let t):
            devices[device]!.lastTime = t
        }
        track(device, into: &out)
    }

    /// Decodes a state report of `device` (libevdev's resync, or the seed of a device just opened).
    public mutating func process(_ frame: Frame, origin: FrameOrigin, device: DeviceID, into out: inout [Broadcast]) {
        guard devices[device] != nil else { return }
        contacts.removeAll(keepingCapacity: true)
        devices[device]!.decoder.process(frame, origin: origin, into: &contacts)
        devices[device]!.lastTime = frame.time
        track(device, into: &out)
    }

    /// Cancels the device's strokes (`deviceRemoved`) and forgets it.
    public mutating func removeDevice(_ device: DeviceID, time: Timestamp?, into out: inout [Broadcast]) {
        guard let d = devices[device] else { return }
        contacts.removeAll(keepingCapacity: true)
        devices[device]!.decoder.cancelAll(reason: .deviceRemoved, time: time ?? d.lastTime, into: &contacts)
        track(device, into: &out)
        devices[device] = nil
        var w = JSONWriter()
        w.field("type", "deviceRemoved")
        w.field("seq", seq + 1)
        w.field("device", device.rawValue)
        out.append(publish(.deviceRemoved, device: device, line: w.finish()))
    }

    /// Cancels every stroke in progress with `reason` (the daemon stops).
    public mutating func cancelAll(reason: CancelReason, time: Timestamp?, into out: inout [Broadcast]) {
        for id in devices.keys.sorted() {
            contacts.removeAll(keepingCapacity: true)
            devices[id]!.decoder.cancelAll(reason: reason, time: time ?? devices[id]!.lastTime, into: &contacts)
            track(id, into: &out)
        }
    }

    /// The messages after `after`, when the buffer still holds all of them; nil when the gap is
    /// too old (or `after` is not a sequence number of this instance).
    public func resume(after: UInt64) -> [Broadcast]? {
        guard after <= seq else { return nil }
        if after == seq { return [] }
        let held = recent.elements
        guard let first = held.first, first.seq <= after + 1 else { return nil }
        return Array(held[Int(after + 1 - first.seq)...])
    }

    /// The oldest sequence number a client can resume after.
    public var oldestResumable: UInt64 { recent.elements.first.map { $0.seq - 1 } ?? seq }

    // MARK: -

    private mutating func track(_ device: DeviceID, into out: inout [Broadcast]) {
        guard !contacts.isEmpty else { return }
        strokeEvents.removeAll(keepingCapacity: true)
        tracker.apply(contacts, device: device, frame: devices[device]!.frames, into: &strokeEvents)
        let geometry = devices[device]!.info.geometry
        for e in strokeEvents {
            if case .hover = e.kind {
                // Hover is transient like pointer motion: not numbered (so the sequence numbers a
                // client without `hover` sees stay gapless) and not kept for resuming.
                let encoded = e.encoded(geometry: geometry, seq: nil)
                out.append(
                    Broadcast(seq: seq, kind: .stroke(e), device: device, line: encoded.line, mergedOffset: encoded.mergedOffset))
                continue
            }
            let encoded = e.encoded(geometry: geometry, seq: seq + 1)
            out.append(publish(.stroke(e), device: device, line: encoded.line, mergedOffset: encoded.mergedOffset))
        }
    }

    private mutating func publish(
        _ kind: Broadcast.Kind, device: DeviceID, line: String, mergedOffset: Int? = nil
    ) -> Broadcast {
        seq += 1
        let b = Broadcast(seq: seq, kind: kind, device: device, line: line, mergedOffset: mergedOffset)
        recent.append(b)
        return b
    }
}
