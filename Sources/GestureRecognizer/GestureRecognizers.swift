import InputCore
import StrokeTracker

/// A recogniser per device and the gesture-id counter they share, for the daemon's `Hub` and
/// `strokes replay --gestures`: ids are unique across devices, as stroke ids are.
public struct GestureRecognizers: Sendable {
    private var recognizers: [DeviceID: GestureRecognizer] = [:]
    /// The last gesture id handed out.
    public private(set) var lastID: UInt64 = 0

    public init() {}

    /// Adds (or replaces) the recogniser of `device`. A pen, or a configuration that is off, gets
    /// none.
    public mutating func add(
        _ device: DeviceID, geometry: DeviceGeometry, kind: DeviceKind, configuration: GestureConfiguration = .init()
    ) {
        let r = GestureRecognizer(device: device, geometry: geometry, kind: kind, configuration: configuration)
        recognizers[device] = r.enabled ? r : nil
    }

    /// Forgets a device (after its strokes were cancelled and processed, which cancelled its
    /// gestures).
    public mutating func remove(_ device: DeviceID) { recognizers[device] = nil }

    public func recognizer(of device: DeviceID) -> GestureRecognizer? { recognizers[device] }

    /// One frame of `device` at `time` and the stroke events it produced. A pen of a device group
    /// may cancel another device's strokes in the same call: those events go to that device's
    /// recogniser (at the same time).
    public mutating func process(_ events: [StrokeEvent], device: DeviceID, time: Timestamp, into out: inout [Gesture]) {
        // Through the index, in place: `recognizers[device] != nil` would copy the recogniser.
        if let i = recognizers.index(forKey: device) { recognizers.values[i].process(events, time: time, ids: &lastID, into: &out) }
        guard events.contains(where: { $0.device != device }) else { return }
        var others: [DeviceID] = []
        for e in events where e.device != device && !others.contains(e.device) { others.append(e.device) }
        for other in others {
            if let i = recognizers.index(forKey: other) { recognizers.values[i].process(events, time: time, ids: &lastID, into: &out) }
        }
    }

    /// Lets time pass on `device` (no frame came): fires a hold that is due.
    public mutating func advance(_ device: DeviceID, to time: Timestamp, into out: inout [Gesture]) {
        if let i = recognizers.index(forKey: device) { recognizers.values[i].advance(to: time, ids: &lastID, into: &out) }
    }

    /// Lets time pass on every device, in device order (a replay of several devices: one
    /// device's frame says how late it is for the others).
    public mutating func advanceAll(to time: Timestamp, into out: inout [Gesture]) {
        for device in recognizers.keys.sorted() { advance(device, to: time, into: &out) }
    }

    /// When `advance` must be called for `device` if no frame comes first.
    public func deadline(of device: DeviceID) -> Timestamp? {
        recognizers.index(forKey: device).flatMap { recognizers.values[$0].deadline }
    }
}
