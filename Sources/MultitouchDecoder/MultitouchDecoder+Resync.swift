import InputCore

/// Where a frame came from. Live devices produce frames that are not the device's own motion:
/// the state dump read when a device is opened, and libevdev's resync after `SYN_DROPPED`.
public enum FrameOrigin: Hashable, Sendable {
    /// An ordinary frame, as the device reported it.
    case device
    /// libevdev's sync events after a `SYN_DROPPED` (`LIBEVDEV_READ_STATUS_SYNC`): the difference
    /// between the state before the drop and the device's state now, possibly as several frames
    /// (libevdev first terminates the touches whose tracking ID changed, then reports the rest).
    case resync
    /// The state of a device that was just opened, as a synthetic frame: contacts already down.
    case seed
}

// Resync semantics (docs/decoder.md, "Lost events"), one case per test in `ResyncTests`:
// - a contact that is gone after the resync, or whose tracking ID changed, is cancelled
//   (`.resync`): its lift happened at an unknown time and place, so it is not a completed stroke;
// - a contact with the same tracking ID goes on: its changed axes are one `moved`;
// - a contact that appears in the resync began during the drop: `began` flagged `.adopted`, with
//   its real tracking ID.
// Seed frames start from unknown slots, so they only ever begin (adopted) contacts.
extension MultitouchDecoder {
    /// Decodes a frame that is a state report rather than device motion.
    public mutating func process(_ frame: Frame, origin: FrameOrigin, into out: inout EventBuffer<ContactEvent>) {
        self.origin = origin
        defer { self.origin = .device }
        clearReports()
        slots.makeUnique()
        out.makeUnique()
        if origin == .resync { note(.resynced) }
        for event in frame.events { apply(event) }
        if mode == .tool {
            flushTool(time: frame.time, into: &out)
        } else {
            flush(time: frame.time, into: &out)
        }
    }

    /// `process(_:origin:into:)` appending to an array (tests, and callers that keep the events).
    public mutating func process(_ frame: Frame, origin: FrameOrigin, into out: inout [ContactEvent]) {
        EventBuffer.appending(to: &out) { process(frame, origin: origin, into: &$0) }
    }
}
