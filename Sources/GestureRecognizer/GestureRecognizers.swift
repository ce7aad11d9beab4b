import InputCore
import StrokeTracker

/// A recogniser per device and the gesture-id counter they share, for the daemon's `Hub` and
/// `strokes replay --gestures`: ids are unique across devices, as stroke ids are.
public struct GestureRecognizers: Sendable {
    /// In place (`DeviceTable`): `deadline(of:)`, once a frame, copied a recogniser out of a dictionary.
    private var recognizers = DeviceTable<GestureRecognizer>()
    /// The last gesture id handed out.
    public private(set) var lastID: UInt64 = 0

    public init() {}

    /// Adds (or replaces) the recogniser of `device`. A pen, or a configuration that is off, gets
    /// none.
    public mutating func add(
        _ device: DeviceID, geometry: DeviceGeometry, kind: DeviceKind, configuration: GestureConfiguration = .init()
    ) {
        let r = GestureRecognizer(device: device, geometry: geometry, kind: kind, configuration: configuration)
        recognizers[id: device] = r.enabled ? r : nil
    }

    /// Forgets a device (after its strokes were cancelled and processed, which cancelled its
    /// gestures).
    public mutating func remove(_ device: DeviceID) { recognizers[id: device] = nil }

    public func recognizer(of device: DeviceID) -> GestureRecognizer? { recognizers[id: device] }

    /// One frame of `device` at `time` and the stroke events it produced. A pen of a device group
    /// may cancel another device's strokes in the same call: those events go to that device's
    /// recogniser (at the same time).
    public mutating func process(_ events: [StrokeEvent], device: DeviceID, time: Timestamp, into out: inout [Gesture]) {
        events.withUnsafeBufferPointer { process($0, device: device, time: time, into: &out) }
    }

    /// `process(_:device:time:into:)` with the events read in place.
    public mutating func process(
        _ events: UnsafeBufferPointer<StrokeEvent>, device: DeviceID, time: Timestamp, into out: inout [Gesture]
    ) {
        if let i = recognizers.index(of: device) { recognizers[i].process(events, time: time, ids: &lastID, into: &out) }
        guard events.contains(where: { $0.device != device }) else { return }
        var others: [DeviceID] = []
        for e in events where e.device != device && !others.contains(e.device) { others.append(e.device) }
        for other in others {
            if let i = recognizers.index(of: other) { recognizers[i].process(events, time: time, ids: &lastID, into: &out) }
        }
    }

    /// Lets time pass on `device` (no frame came): fires a hold that is due.
    public mutating func advance(_ device: DeviceID, to time: Timestamp, into out: inout [Gesture]) {
        if let i = recognizers.index(of: device) { recognizers[i].advance(to: time, ids: &lastID, into: &out) }
    }

    /// Lets time pass on every device, in device order (a replay of several devices: one
    /// device's frame says how late it is for the others).
    public mutating func advanceAll(to time: Timestamp, into out: inout [Gesture]) {
        for device in recognizers.devices.sorted() { advance(device, to: time, into: &out) }
    }

    /// When `advance` must be called for `device` if no frame comes first.
    public func deadline(of device: DeviceID) -> Timestamp? {
        recognizers.index(of: device).flatMap { recognizers[$0].deadline }
    }
}
