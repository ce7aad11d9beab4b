/// The state of one multitouch slot as the kernel holds it (`EVIOCGMTSLOTS`, libevdev's
/// `libevdev_get_slot_value`): what a live device reports for a slot when it is opened.
public struct SlotState: Hashable, Sendable {
    /// `ABS_MT_TRACKING_ID`; -1 for an empty slot.
    public var trackingID: Int32
    /// Per-slot axes (`ABS_MT_*` code → value) other than the tracking ID.
    public var axes: [UInt16: Int32]

    public init(trackingID: Int32, axes: [UInt16: Int32]) {
        self.trackingID = trackingID
        self.axes = axes
    }
}

extension Frame {
    /// The synthetic frame that seeds a decoder with a live device's slots: for each slot its
    /// tracking ID and axes, then `ABS_MT_SLOT` back to `currentSlot`, so the device's next events
    /// apply where the kernel says they do. Decode it as a seed (`FrameOrigin.seed`).
    public static func seed(slots: [SlotState], currentSlot: Int32, time: Timestamp) -> Frame {
        var events: [InputEvent] = []
        for (index, slot) in slots.enumerated() {
            events.append(InputEvent(time: time, type: .abs, code: AbsCode.mtSlot, value: Int32(index)))
            events.append(InputEvent(time: time, type: .abs, code: AbsCode.mtTrackingID, value: slot.trackingID))
            guard slot.trackingID >= 0 else { continue }
            for (code, value) in slot.axes.sorted(by: { $0.key < $1.key })
            where code != AbsCode.mtTrackingID && code != AbsCode.mtSlot {
                events.append(InputEvent(time: time, type: .abs, code: code, value: value))
            }
        }
        events.append(InputEvent(time: time, type: .abs, code: AbsCode.mtSlot, value: currentSlot))
        return Frame(events: events, time: time)
    }
}
