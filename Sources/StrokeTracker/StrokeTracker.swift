import InputCore
import MultitouchDecoder

/// Keeps the strokes in progress, keyed by (device, slot, tracking ID), and a bounded history of
/// completed ones: the finger-paint pattern. Touch down creates an entry, motion appends to its
/// polyline, lift moves it to `completed`, and a cancelled stroke is dropped with its reason.
/// Pure: contact events in, stroke events out.
public struct StrokeTracker: Sendable {
    /// Strokes in progress, in no particular order, each with its jump detection state. A handful
    /// at a time (one per finger), found through `indexHints` or a scan by key, which are cheaper
    /// than hashing the key per event.
    var active: [LiveStroke] = []
    /// By slot (its low 8 bits): the index in `active` where that slot's stroke was last found.
    /// A hint, checked against the key before use (`liveIndex`).
    private var indexHints = [UInt16](repeating: 0, count: 256)
    public private(set) var completed: BoundedHistory<CompletedStroke>
    /// Each device's geometry as its strokes pack their points with it (`LiveStroke`,
    /// `CompletedStroke`), made at the first frame after the geometry changed.
    private var sharedGeometries: [DeviceID: SharedGeometry] = [:]
    /// Buffers of finished strokes, for the next strokes to pack their points into.
    private var spareBuffers: [[UInt8]] = []
    /// Off: the history keeps points as they are (what tests compare the packed ones with).
    var packsHistory = true
    var geometries: [DeviceID: DeviceGeometry] = [:] {
        didSet {
            lastGeometry = nil
            sharedGeometries.removeAll()
        }
    }
    /// The geometry of the device of the last `apply`, as strokes pack with it: most frames come
    /// from the same device as the one before, and this spares them a hash lookup.
    /// Unmanaged: `sharedGeometries` holds it, and reading a reference out of `self` per frame
    /// retained and released it (a tenth of tracking on a 10-finger recording).
    private var lastGeometry: (device: DeviceID, shared: Unmanaged<SharedGeometry>)?
    private var nextStrokeID: UInt64
    /// Strokes split at a touch jump (`JumpDetection`), over all devices.
    public private(set) var jumps = 0
    var arbiter = TouchArbitration()

    /// - Parameters:
    ///   - historyLimit: how many completed strokes to keep.
    ///   - firstStrokeID: the first id handed out.
    public init(historyLimit: Int = 256, firstStrokeID: UInt64 = 1) {
        completed = BoundedHistory(capacity: historyLimit)
        nextStrokeID = firstStrokeID
    }

    public mutating func addDevice(_ device: DeviceID, geometry: DeviceGeometry) {
        geometries[device] = geometry
    }

    /// Applies `calibration` to `device`'s points from now on; points already in strokes keep
    /// theirs. Does nothing for a device never added.
    public mutating func setCalibration(_ calibration: Calibration, of device: DeviceID) {
        geometries[device]?.calibration = calibration
    }

    /// Replaces `device`'s touch-jump detection (nil: off) from the next frame on.
    public mutating func setJumpDetection(_ detection: JumpDetection?, of device: DeviceID) {
        geometries[device]?.jumpDetection = detection
    }

    public func geometry(of device: DeviceID) -> DeviceGeometry? { geometries[device] }

    /// Strokes in progress, by key.
    public var inProgress: [StrokeKey: Stroke] {
        Dictionary(uniqueKeysWithValues: active.map { ($0.key, $0.stroke) })
    }

    /// How many strokes are in progress.
    public var inProgressCount: Int { active.count }

    /// Strokes in progress, oldest first.
    public var live: [Stroke] { active.map(\.stroke).sorted { $0.id < $1.id } }

    /// The index in `active` of the stroke in progress under `key`.
    @inline(__always)
    mutating func liveIndex(_ key: StrokeKey) -> Int? {
        // Where the slot's stroke was found last time, if it is still there: a scan past the other
        // fingers' strokes was a tenth of tracking on a 10-finger recording.
        let hint = Int(indexHints[Int(UInt8(truncatingIfNeeded: key.slot))])
        if hint < active.count && active[hint].key == key { return hint }
        return scan(for: key)
    }

    @inline(never)
    private mutating func scan(for key: StrokeKey) -> Int? {
        // By index, comparing the keys in place: `firstIndex(where:)` handed each entry over
        // whole, retaining and releasing its arrays and geometry.
        for i in active.indices where active[i].key == key {
            noteIndex(i, of: key)
            return i
        }
        return nil
    }

    /// Remembers that `key`'s stroke is at `active[i]`.
    @inline(__always)
    private mutating func noteIndex(_ i: Int, of key: StrokeKey) {
        indexHints[Int(UInt8(truncatingIfNeeded: key.slot))] = UInt16(truncatingIfNeeded: i)
    }

    /// Applies the contact events of one frame of `device`, appending stroke events to `out`.
    public mutating func apply(
        _ events: [ContactEvent], device: DeviceID, frame: UInt64, into out: inout [StrokeEvent]
    ) {
        EventBuffer.appending(to: &out) { buffer in
            events.withUnsafeBufferPointer { apply($0, device: device, frame: frame, into: &buffer) }
        }
    }

    /// `apply(_:device:frame:into:)` with the events read in place and appended to a buffer
    /// (`DevicePipeline` hands over the part of its buffer that one frame appended): what the
    /// daemon runs.
    public mutating func apply(
        _ events: UnsafeBufferPointer<ContactEvent>, device: DeviceID, frame: UInt64, into out: inout EventBuffer<StrokeEvent>
    ) {
        guard !events.isEmpty else { return }
        out.makeUnique()
        let shared: Unmanaged<SharedGeometry>
        if let last = lastGeometry, last.device == device {
            shared = last.shared
        } else {
            shared = Unmanaged.passUnretained(sharedGeometry(of: device))
            lastGeometry = (device, shared)
        }
        // Borrowed, not retained: `sharedGeometries` keeps it alive, and nothing in a frame changes
        // the geometries.
        shared._withUnsafeGuaranteedRef { apply(events, device: device, frame: frame, shared: $0, into: &out) }
    }

    /// `apply(_:device:frame:into:)` with the device's geometry, read in place from `shared` (a
    /// copy of it per frame was a tenth of tracking).
    @inline(__always)
    private mutating func apply(
        _ events: UnsafeBufferPointer<ContactEvent>, device: DeviceID, frame: UInt64, shared: SharedGeometry,
        into out: inout EventBuffer<StrokeEvent>
    ) {
        // Each event read in place: a copy of it per event was a tenth of tracking.
        for i in events.indices {
            let e = events.baseAddress.unsafelyUnwrapped + i
            // What strokes pack their points with (nil: they keep them as points); formed per use
            // from the borrowed `shared`, as a local it was retained and released per frame.
            var packing: SharedGeometry? { packsHistory ? shared : nil }
            let key = StrokeKey(device: device, slot: e.pointee.slot, trackingID: e.pointee.trackingID)
            if arbiter.isActive {
                switch arbiter.decide(e.pointee, key: key, isPen: shared.geometry.isPen) {
                case .publish: break
                case .drop: continue
                case .penEntered(let group): cancelForPen(group: group, time: e.pointee.time, frame: frame, into: &out)
                }
            }
            // The point, derived where each case needs it: a motion's goes straight into its event.
            @inline(__always) func derive() -> StrokePoint {
                StrokePoint(time: e.pointee.time, sample: e.pointee.sample, geometry: shared.geometry)
            }
            switch e.pointee.kind {
            case .began:
                let point = derive()
                let id = StrokeID(rawValue: nextStrokeID)
                nextStrokeID += 1
                let stroke = Stroke(
                    id: id, device: device, slot: e.pointee.slot, trackingID: e.pointee.trackingID, flags: e.pointee.flags,
                    state: .inProgress, firstFrame: frame, points: [], lastFrame: frame
                )
                let live = LiveStroke(key: key, header: stroke, point: point, geometry: packing, buffer: spareBuffer())
                if let index = liveIndex(key) {
                    assertionFailure("decoder bug: began for \(key), which is in progress")
                    active[index] = live
                } else {
                    noteIndex(active.count, of: key)
                    active.append(live)
                }
                out.appendAssumingUnique(event(.began, stroke, frame: frame, point: point))
            case .moved:
                // One lookup for the hot path: the stroke's index, then in-place updates.
                guard let index = liveIndex(key) else {
                    assertionFailure("decoder bug: moved for \(key), which is not in progress")
                    continue
                }
                if shared.geometry.jumpDetection != nil, !e.pointee.flags.contains(.unsettled), isJump(index, to: e, shared) {
                    splitAtJump(index, e.pointee, point: derive(), frame: frame, packing: packing, into: &out)
                    continue
                }
                let id = active[index].extend(
                    time: e.pointee.time, sample: e.pointer(to: \.sample).unsafelyUnwrapped, frame: frame, geometry: packing, unpacked: shared.geometry)
                out.appendAssumingUnique(StrokeEvent(
                    kind: .moved, stroke: id, device: device, frame: frame, slot: e.pointee.slot,
                    trackingID: e.pointee.trackingID, point: derive(), flags: []))
            case .hover(let phase):
                // Seen by the arbitration above, never published (`ContactFlags.positionPending`).
                if e.pointee.flags.contains(.positionPending) { continue }
                out.appendAssumingUnique(StrokeEvent(
                    kind: .hover(phase), stroke: .hover(device: device, slot: e.pointee.slot), device: device, frame: frame,
                    slot: e.pointee.slot, trackingID: e.pointee.trackingID, point: derive(), flags: []))
            case .ended, .cancelled:
                guard let index = liveIndex(key) else {
                    assertionFailure("decoder bug: \(e.pointee.kind) for \(key), which is not in progress")
                    continue
                }
                let point = derive()
                if e.pointee.kind == .ended, shared.geometry.jumpDetection != nil, !e.pointee.flags.contains(.unsettled),
                    isJump(index, to: e, shared)
                {
                    // The lift sample is somewhere else: the finger that lifted there is a stroke
                    // of its own, begun and ended in this frame.
                    splitAtJump(index, e.pointee, point: point, frame: frame, packing: packing, into: &out)
                }
                var live = active.swapRemove(at: index)
                if case .cancelled(let reason) = e.pointee.kind {
                    out.appendAssumingUnique(event(.cancelled(reason), live.header, frame: frame, point: point))
                } else {
                    // The lift sample is part of the polyline only if the finger moved before lifting.
                    if !point.samePosition(as: live.last) { live.append(point, sample: e.pointee.sample, geometry: packing) }
                    out.appendAssumingUnique(event(.ended, live.header, frame: frame, point: point))
                    complete(live)
                }
                recycle(&live)
            }
        }
    }

    /// Judges the motion of the stroke at `active[index]` from its last point to the position of
    /// `e`, remembering its distance for the next motion.
    /// The geometry is read in place from `shared`.
    @inline(__always)
    private mutating func isJump(_ index: Int, to e: UnsafePointer<ContactEvent>, _ shared: SharedGeometry) -> Bool {
        let verdict = shared.geometry.jumpDetection!.judge(
            from: active[index].lastRaw, to: (e.pointee.time, e.pointee.sample.x, e.pointee.sample.y),
            lastDistance: active[index].jumpDistance, geometry: shared.geometry)
        switch verdict {
        case .motion(let distance):
            active[index].jumpDistance = distance
            return false
        case .unjudged:
            return false
        case .jump:
            active[index].jumpDistance = 0
            return true
        }
    }

    /// Ends the stroke at `active[index]` at its last point (the last believable one) and begins a
    /// new stroke, flagged `jump`, at `point`, under the same key and index.
    private mutating func splitAtJump(
        _ index: Int, _ e: ContactEvent, point: StrokePoint, frame: UInt64, packing: SharedGeometry?,
        into out: inout EventBuffer<StrokeEvent>
    ) {
        let key = active[index].key
        out.appendAssumingUnique(event(.ended, active[index].header, frame: frame, point: active[index].last))
        complete(active[index])
        jumps += 1
        let id = StrokeID(rawValue: nextStrokeID)
        nextStrokeID += 1
        var flags = e.flags.subtracting(.adopted)
        flags.insert(.jump)
        let stroke = Stroke(
            id: id, device: key.device, slot: e.slot, trackingID: e.trackingID, flags: flags, state: .inProgress,
            firstFrame: frame, points: [], lastFrame: frame
        )
        var old = active[index]
        active[index] = LiveStroke(key: key, header: stroke, point: point, geometry: packing, buffer: spareBuffer())
        recycle(&old)
        out.appendAssumingUnique(event(.began, stroke, frame: frame, point: point))
    }

    /// Moves an ended stroke into the history.
    private mutating func complete(_ live: LiveStroke) {
        guard completed.capacity > 0 else { return completed.append(CompletedStroke(unpacked: live.header)) }
        completed.append(live.completed(.ended))
    }

    /// The geometry strokes of `device` pack their points with, made once per change of geometries.
    private mutating func sharedGeometry(of device: DeviceID) -> SharedGeometry {
        if let known = sharedGeometries[device] { return known }
        guard let geometry = geometries[device] else {
            preconditionFailure("StrokeTracker: events for device \(device), which was never added")
        }
        let shared = SharedGeometry(geometry)
        sharedGeometries[device] = shared
        return shared
    }

    /// A buffer for a new stroke to pack its points into.
    private mutating func spareBuffer() -> [UInt8] {
        spareBuffers.popLast() ?? []
    }

    /// Keeps the buffer of a finished stroke for the next one (a few: one per finger).
    mutating func recycle(_ live: inout LiveStroke) {
        guard spareBuffers.count < 16, live.packer.buffer.capacity > 0 else { return }
        spareBuffers.append(live.packer.takeBuffer())
    }

    private func event(_ kind: StrokeEvent.Kind, _ s: Stroke, frame: UInt64, point: StrokePoint) -> StrokeEvent {
        StrokeEvent(
            kind: kind, stroke: s.id, device: s.device, frame: frame, slot: s.slot, trackingID: s.trackingID,
            point: point, flags: kind == .began ? s.flags : []
        )
    }
}
