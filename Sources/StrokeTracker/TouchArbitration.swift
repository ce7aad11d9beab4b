import InputCore
import MultitouchDecoder

/// Touch arbitration (libinput's, `evdev-tablet.c` "tablet_set_touch_device_enabled"): while a
/// pen of a device group is in proximity, the fingers of the group's touch devices are not
/// strokes. Their strokes in progress are cancelled (`pen`) and touches are not published until
/// they lift, even if the pen leaves meanwhile. Pure; driven by `StrokeTracker`.
struct TouchArbitration: Sendable {
    /// The group of each grouped device, and whether a touch device takes part (on by default).
    var groups: [DeviceID: UInt32] = [:]
    var disabled: Set<DeviceID> = []
    /// Per group, the pen devices in proximity.
    var pens: [UInt32: Set<DeviceID>] = [:]
    /// Contacts of touch devices that are not published (cancelled or begun near the pen).
    var suppressed: Set<StrokeKey> = []
    /// Slots (`StrokeKey` without a tracking ID) whose suppressed contact was cancelled by lost
    /// events: its fate is unknown, so the contact adopted there next (no new tracking ID seen)
    /// is taken for it and stays unpublished until it lifts, as a palm sent again does.
    var suppressedAcrossDrop: Set<StrokeKey> = []

    var isActive: Bool { !groups.isEmpty }

    enum Decision {
        case publish
        case drop
        /// A pen of `group` came into proximity: cancel the group's finger strokes, then publish.
        case penEntered(group: UInt32)
    }

    mutating func decide(_ e: ContactEvent, key: StrokeKey, isPen: Bool) -> Decision {
        guard let group = groups[key.device] else { return .publish }
        if isPen {
            switch e.kind {
            case .hover(.proximityIn):
                pens[group, default: []].insert(key.device)
                return .penEntered(group: group)
            case .hover(.proximityOut):
                pens[group]?.remove(key.device)
                return .publish
            case .hover(.motion), .began, .moved, .ended, .cancelled:
                return .publish
            }
        }
        guard !disabled.contains(key.device) else { return .publish }
        switch e.kind {
        case .began:
            if !suppressedAcrossDrop.isEmpty,
                suppressedAcrossDrop.remove(StrokeKey(device: key.device, slot: key.slot, trackingID: nil)) != nil,
                e.flags.contains(.adopted)
            {
                suppressed.insert(key)
                return .drop
            }
            guard pens[group]?.isEmpty == false else { return .publish }
            suppressed.insert(key)
            return .drop
        case .moved:
            return suppressed.contains(key) ? .drop : .publish
        case .ended, .cancelled:
            guard suppressed.remove(key) != nil else { return .publish }
            if case .cancelled(.eventsDropped) = e.kind {
                suppressedAcrossDrop.insert(StrokeKey(device: key.device, slot: key.slot, trackingID: nil))
            }
            return .drop
        case .hover:
            return pens[group]?.isEmpty == false || suppressed.contains(key) ? .drop : .publish
        }
    }

    /// Whether `device`'s strokes are cancelled when a pen of `group` comes near.
    func arbitrates(_ device: DeviceID, in group: UInt32, isPen: Bool) -> Bool {
        !isPen && groups[device] == group && !disabled.contains(device)
    }
}

extension StrokeTracker {
    /// Puts `device` in device group `group` (nil: in none). A pen device in proximity disables
    /// the touch devices of its group unless their `arbitration` is off (docs/decoder.md,
    /// "Touch arbitration").
    public mutating func setGroup(_ device: DeviceID, group: UInt32?, arbitration: Bool = true) {
        arbiter.groups[device] = group
        if arbitration { arbiter.disabled.remove(device) } else { arbiter.disabled.insert(device) }
    }

    /// The device group of `device`, if any.
    public func group(of device: DeviceID) -> UInt32? { arbiter.groups[device] }

    /// Cancels (`pen`) the strokes in progress of the touch devices of `group`; their contacts
    /// stay unpublished until they lift.
    mutating func cancelForPen(group: UInt32, time: Timestamp, frame: UInt64, into out: inout EventBuffer<StrokeEvent>) {
        let victims = active.filter { live in
            arbiter.arbitrates(live.key.device, in: group, isPen: geometries[live.key.device]?.isPen ?? false)
        }.sorted { $0.header.id < $1.header.id }
        active.removeAll { live in victims.contains { $0.key == live.key } }
        for var victim in victims {
            let stroke = victim.header
            arbiter.suppressed.insert(victim.key)
            var point = victim.last
            point.time = time
            recycle(&victim)
            out.appendAssumingUnique(StrokeEvent(
                kind: .cancelled(.pen), stroke: stroke.id, device: stroke.device, frame: stroke.lastFrame,
                slot: stroke.slot, trackingID: stroke.trackingID, point: point, flags: []))
        }
    }
}
