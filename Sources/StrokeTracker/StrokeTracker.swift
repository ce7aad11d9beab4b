import InputCore
import MultitouchDecoder

/// Keeps the strokes in progress, keyed by (device, slot, tracking ID), and a bounded history of
/// completed ones: the finger-paint pattern. Touch down creates an entry, motion appends to its
/// polyline, lift moves it to `completed`, and a cancelled stroke is dropped with its reason.
/// Pure: contact events in, stroke events out.
public struct StrokeTracker: Sendable {
    /// Strokes in progress, in no particular order, each with its jump detection state. A handful
    /// at a time (one per finger), so a scan by key is cheaper than hashing the key per event.
    var active: [LiveStroke] = []
    public private(set) var completed: BoundedHistory<CompletedStroke>
    /// Each device's geometry as its completed strokes share it (`CompletedStroke`), made at the
    /// first completion after the geometry changed.
    private var sharedGeometries: [DeviceID: SharedGeometry] = [:]
    /// Reused by every completion to pack the points in.
    private var packScratch: [UInt8] = []
    /// Off: the history keeps points as they are (what tests compare the packed ones with).
    var packsHistory = true
    var geometries: [DeviceID: DeviceGeometry] = [:] {
        didSet {
            lastGeometry = nil
            sharedGeometries.removeAll()
        }
    }
    /// The geometry of the device of the last `apply`: most frames come from the same device as
    /// the one before, and this spares them a hash lookup.
    private var lastGeometry: (device: DeviceID, geometry: DeviceGeometry)?
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
    func liveIndex(_ key: StrokeKey) -> Int? {
        active.firstIndex { $0.key == key }
    }

    /// Applies the contact events of one frame of `device`, appending stroke events to `out`.
    public mutating func apply(
        _ events: [ContactEvent], device: DeviceID, frame: UInt64, into out: inout [StrokeEvent]
    ) {
        guard !events.isEmpty else { return }
        let geometry: DeviceGeometry
        if let last = lastGeometry, last.device == device {
            geometry = last.geometry
        } else {
            guard let found = geometries[device] else {
                preconditionFailure("StrokeTracker: events for device \(device), which was never added")
            }
            geometry = found
            lastGeometry = (device, found)
        }
        for e in events {
            let key = StrokeKey(device: device, slot: e.slot, trackingID: e.trackingID)
            if arbiter.isActive {
                switch arbiter.decide(e, key: key, isPen: geometry.isPen) {
                case .publish: break
                case .drop: continue
                case .penEntered(let group): cancelForPen(group: group, time: e.time, frame: frame, into: &out)
                }
            }
            let point = StrokePoint(time: e.time, sample: e.sample, geometry: geometry)
            switch e.kind {
            case .began:
                let id = StrokeID(rawValue: nextStrokeID)
                nextStrokeID += 1
                let stroke = Stroke(
                    id: id, device: device, slot: e.slot, trackingID: e.trackingID, flags: e.flags, state: .inProgress,
                    firstFrame: frame, points: [point], lastFrame: frame
                )
                if let index = liveIndex(key) {
                    assertionFailure("decoder bug: began for \(key), which is in progress")
                    active[index] = LiveStroke(key: key, stroke: stroke)
                } else {
                    active.append(LiveStroke(key: key, stroke: stroke))
                }
                out.append(event(.began, stroke, frame: frame, point: point))
            case .moved:
                // One lookup for the hot path: the stroke's index, then in-place updates.
                guard let index = liveIndex(key) else {
                    assertionFailure("decoder bug: moved for \(key), which is not in progress")
                    continue
                }
                if geometry.jumpDetection != nil, isJump(index, to: point, geometry) {
                    splitAtJump(index, e, point: point, frame: frame, into: &out)
                    continue
                }
                let id = active[index].extend(point, frame: frame)
                out.append(StrokeEvent(kind: .moved, stroke: id, device: device, frame: frame, slot: e.slot, trackingID: e.trackingID, point: point, flags: []))
            case .hover(let phase):
                out.append(StrokeEvent(
                    kind: .hover(phase), stroke: .hover(device: device, slot: e.slot), device: device, frame: frame,
                    slot: e.slot, trackingID: e.trackingID, point: point, flags: []))
            case .ended, .cancelled:
                guard let index = liveIndex(key) else {
                    assertionFailure("decoder bug: \(e.kind) for \(key), which is not in progress")
                    continue
                }
                if e.kind == .ended, geometry.jumpDetection != nil, isJump(index, to: point, geometry) {
                    // The lift sample is somewhere else: the finger that lifted there is a stroke
                    // of its own, begun and ended in this frame.
                    splitAtJump(index, e, point: point, frame: frame, into: &out)
                }
                var stroke = active.swapRemoveStroke(at: index)
                if case .cancelled(let reason) = e.kind {
                    stroke.state = .cancelled(reason)
                    out.append(event(.cancelled(reason), stroke, frame: frame, point: point))
                } else {
                    // The lift sample is part of the polyline only if the finger moved before lifting.
                    if !point.samePosition(as: stroke.points[stroke.points.count - 1]) { stroke.points.append(point) }
                    stroke.state = .ended
                    out.append(event(.ended, stroke, frame: frame, point: point))
                    complete(stroke)
                }
            }
        }
    }

    /// Judges the motion of the stroke at `active[index]` from its last point to `point`,
    /// remembering its distance for the next motion.
    private mutating func isJump(_ index: Int, to point: StrokePoint, _ geometry: DeviceGeometry) -> Bool {
        let points = active[index].stroke.points
        let verdict = geometry.jumpDetection!.judge(
            from: points[points.count - 1], to: point, lastDistance: active[index].jumpDistance,
            geometry: geometry)
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
        _ index: Int, _ e: ContactEvent, point: StrokePoint, frame: UInt64, into out: inout [StrokeEvent]
    ) {
        let key = active[index].key
        var old = active[index].stroke
        old.state = .ended
        out.append(event(.ended, old, frame: frame, point: old.points[old.points.count - 1]))
        complete(old)
        jumps += 1
        let id = StrokeID(rawValue: nextStrokeID)
        nextStrokeID += 1
        var flags = e.flags.subtracting(.adopted)
        flags.insert(.jump)
        let stroke = Stroke(
            id: id, device: key.device, slot: e.slot, trackingID: e.trackingID, flags: flags, state: .inProgress,
            firstFrame: frame, points: [point]
        )
        active[index] = LiveStroke(key: key, stroke: stroke)
        out.append(event(.began, stroke, frame: frame, point: point))
    }

    /// Moves an ended stroke into the history, its points packed with its device's geometry.
    private mutating func complete(_ stroke: Stroke) {
        guard packsHistory, completed.capacity > 0, let geometry = geometries[stroke.device] else {
            return completed.append(CompletedStroke(unpacked: stroke))
        }
        let shared: SharedGeometry
        if let known = sharedGeometries[stroke.device] {
            shared = known
        } else {
            shared = SharedGeometry(geometry)
            sharedGeometries[stroke.device] = shared
        }
        let entry = CompletedStroke(stroke, geometry: shared, scratch: &packScratch)
        completed.append(entry)
    }

    private func event(_ kind: StrokeEvent.Kind, _ s: Stroke, frame: UInt64, point: StrokePoint) -> StrokeEvent {
        StrokeEvent(
            kind: kind, stroke: s.id, device: s.device, frame: frame, slot: s.slot, trackingID: s.trackingID,
            point: point, flags: kind == .began ? s.flags : []
        )
    }
}

/// A stroke in progress, under its key, with what jump detection remembers of it.
struct LiveStroke: Sendable {
    var key: StrokeKey
    var stroke: Stroke
    /// Its last motion's distance per reference frame (`JumpDetection.judge`); 0 before the first.
    var jumpDistance: Double = 0

    /// Appends `point`, of `frame`, to the polyline; returns the stroke's id. One access to the
    /// entry for the per-event path.
    @inline(__always)
    mutating func extend(_ point: StrokePoint, frame: UInt64) -> StrokeID {
        stroke.points.append(point)
        stroke.lastFrame = frame
        return stroke.id
    }
}

extension Array where Element == LiveStroke {
    /// Removes the element at `index`, moving the last one into its place (order is not kept).
    mutating func swapRemoveStroke(at index: Int) -> Stroke {
        swapAt(index, count - 1)
        return removeLast().stroke
    }
}
