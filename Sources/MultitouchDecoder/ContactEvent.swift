import InputCore

/// The per-slot axis values of one contact, raw device units.
///
/// A slot's values persist across contacts: the kernel sends only changes, so a new contact that
/// starts where the previous one in the same slot ended does not resend its position.
public struct ContactSample: Hashable, Sendable {
    public var x: Int32 = 0
    public var y: Int32 = 0
    public var pressure: Int32 = 0
    public var touchMajor: Int32 = 0
    public var touchMinor: Int32 = 0
    public var orientation: Int32 = 0
    public var toolType: Int32 = ToolType.finger

    public init(
        x: Int32 = 0, y: Int32 = 0, pressure: Int32 = 0, touchMajor: Int32 = 0, touchMinor: Int32 = 0,
        orientation: Int32 = 0, toolType: Int32 = ToolType.finger
    ) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.orientation = orientation
        self.toolType = toolType
    }
}

/// Why a contact was cancelled rather than ended: its last point is not where the finger lifted,
/// or it was never a finger.
public enum CancelReason: String, Hashable, Sendable, CaseIterable {
    /// The device reported `ABS_MT_TOOL_TYPE = MT_TOOL_PALM` for a live contact.
    case palm
    /// `SYN_DROPPED` in an event stream: events were lost and the contact's fate is unknown.
    case eventsDropped
    /// A live device's state was resynchronised after `SYN_DROPPED` (libevdev's sync frames) and the
    /// contact had ended or changed meanwhile.
    case resync
    /// The device disappeared.
    case deviceRemoved
    /// The daemon is shutting down.
    case shutdown
}

/// Facts about a contact that a client may want to know.
public struct ContactFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The contact was already down when decoding started (or resumed after lost events): its
    /// beginning was not seen, and its tracking ID may be unknown.
    public static let adopted = ContactFlags(rawValue: 1 << 0)
    /// The device is semi-MT (`INPUT_PROP_SEMI_MT`): slots carry a bounding box, not fingers.
    public static let semiMT = ContactFlags(rawValue: 1 << 1)
    /// The stroke began where its contact jumped farther in one frame than a finger can: the
    /// tracker ended the contact's previous stroke there (docs/decoder.md, "Touch jumps").
    public static let jump = ContactFlags(rawValue: 1 << 2)
}

/// One contact lifecycle transition, produced at a `SYN_REPORT` (or a drop).
public struct ContactEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case began
        case moved
        case ended
        case cancelled(CancelReason)
    }

    public var kind: Kind
    public var slot: Int32
    /// The kernel tracking ID; nil for single-touch devices and for adopted contacts whose ID was
    /// never seen.
    public var trackingID: Int32?
    public var time: Timestamp
    public var sample: ContactSample
    public var flags: ContactFlags

    public init(kind: Kind, slot: Int32, trackingID: Int32?, time: Timestamp, sample: ContactSample, flags: ContactFlags = []) {
        self.kind = kind
        self.slot = slot
        self.trackingID = trackingID
        self.time = time
        self.sample = sample
        self.flags = flags
    }
}
