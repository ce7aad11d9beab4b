import InputCore

/// The per-slot axis values of one contact, raw device units.
///
/// A slot's values persist across contacts: the kernel sends only changes, so a new contact that
/// starts where the previous one in the same slot ended does not resend its position. A value the
/// device has not reported since decoding started is unknown: its bit in `known` is clear, its
/// field holds 0, and nothing publishes it (docs/decoder.md, "No invented values").
public struct ContactSample: Hashable, Sendable {
    public var x: Int32 = 0
    public var y: Int32 = 0
    public var pressure: Int32 = 0
    public var touchMajor: Int32 = 0
    public var touchMinor: Int32 = 0
    public var orientation: Int32 = 0
    public var toolType: Int32 = ToolType.finger
    /// `ABS_DISTANCE` (pens) or `ABS_MT_DISTANCE`.
    public var distance: Int32 = 0
    /// `ABS_TILT_X`, `ABS_TILT_Y` (pens).
    public var tiltX: Int32 = 0
    public var tiltY: Int32 = 0
    /// `ABS_Z`: the barrel rotation of Wacom's Art Pen (pens).
    public var rotation: Int32 = 0
    /// `ABS_WHEEL`: the finger wheel of an airbrush (pens).
    public var wheel: Int32 = 0
    /// `ABS_MISC`: the tool id Wacom tablets report (pens).
    public var toolID: Int32 = 0
    /// `MSC_SERIAL`: the tool's serial number (pens), as the kernel's unsigned value.
    public var serial: UInt32 = 0
    /// The stylus buttons held (`PenButtons`).
    public var buttons: PenButtons = []
    /// Which of the values above the device has reported (`KnownAxes`).
    public var known: KnownAxes = []
    /// Always 0. It makes the sample 64 bytes, copied as four 16-byte blocks: at 60, a copy
    /// through the stack ended in a block overlapping the one before it, and reading the copy back
    /// across the two stalled the CPU, which cannot forward a load from two stores
    /// (docs/performance.md, "Sixteenth round").
    private var padding: UInt32 = 0

    /// A sample with these values; `known` says which of them the device reported (all, unless
    /// told otherwise).
    public init(
        x: Int32 = 0, y: Int32 = 0, pressure: Int32 = 0, touchMajor: Int32 = 0, touchMinor: Int32 = 0,
        orientation: Int32 = 0, toolType: Int32 = ToolType.finger, known: KnownAxes = .all
    ) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.orientation = orientation
        self.toolType = toolType
        self.known = known
    }

    /// Both coordinates have been reported.
    @inlinable public var positionKnown: Bool { known.isSuperset(of: .position) }
}

/// The values of a `ContactSample` that the device has reported.
public struct KnownAxes: OptionSet, Hashable, Sendable {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    public static let x = KnownAxes(rawValue: 1 << 0)
    public static let y = KnownAxes(rawValue: 1 << 1)
    public static let pressure = KnownAxes(rawValue: 1 << 2)
    public static let touchMajor = KnownAxes(rawValue: 1 << 3)
    public static let touchMinor = KnownAxes(rawValue: 1 << 4)
    public static let orientation = KnownAxes(rawValue: 1 << 5)
    public static let toolType = KnownAxes(rawValue: 1 << 6)
    public static let distance = KnownAxes(rawValue: 1 << 7)
    public static let tiltX = KnownAxes(rawValue: 1 << 8)
    public static let tiltY = KnownAxes(rawValue: 1 << 9)
    public static let rotation = KnownAxes(rawValue: 1 << 10)
    public static let wheel = KnownAxes(rawValue: 1 << 11)
    public static let toolID = KnownAxes(rawValue: 1 << 12)
    public static let serial = KnownAxes(rawValue: 1 << 13)
    public static let buttons = KnownAxes(rawValue: 1 << 14)
    public static let position: KnownAxes = [.x, .y]
    public static let all = KnownAxes(rawValue: 0x7fff)
}

/// Stylus buttons (kernel `event-codes.rst`: `BTN_STYLUS`, `BTN_STYLUS2`, `BTN_STYLUS3`).
public struct PenButtons: OptionSet, Hashable, Sendable {
    public var rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `BTN_STYLUS`: the lower barrel button.
    public static let stylus = PenButtons(rawValue: 1 << 0)
    /// `BTN_STYLUS2`: the upper barrel button.
    public static let stylus2 = PenButtons(rawValue: 1 << 1)
    /// `BTN_STYLUS3`: a third barrel button.
    public static let stylus3 = PenButtons(rawValue: 1 << 2)

    /// The button a key code stands for; empty for other keys.
    @inlinable
    public init(key: UInt16) {
        switch key {
        case KeyCode.btnStylus: self = .stylus
        case KeyCode.btnStylus2: self = .stylus2
        case KeyCode.btnStylus3: self = .stylus3
        default: self = []
        }
    }

    /// Names in protocol order: `stylus`, `stylus2`, `stylus3`.
    public var names: [String] {
        var n: [String] = []
        if contains(.stylus) { n.append("stylus") }
        if contains(.stylus2) { n.append("stylus2") }
        if contains(.stylus3) { n.append("stylus3") }
        return n
    }
}

/// What a `hover` event says: a tool (a pen, or a multitouch contact that reports
/// `ABS_MT_DISTANCE`) near the surface without touching it.
public enum HoverPhase: String, Hashable, Sendable, CaseIterable {
    /// The tool came into proximity (`BTN_TOOL_*` set, or a new tracking ID that hovers).
    case proximityIn
    /// The tool moved (or a button changed) while in proximity and not touching.
    case motion
    /// The tool left proximity.
    case proximityOut
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
    /// A looped replay started its recording over while the contact was still down in it.
    case replayRestarted
    /// A pen of the same hardware came into proximity: libinput's touch arbitration.
    case pen
    /// Single-touch devices: the contact was adopted from motion before the stream's first
    /// `BTN_TOUCH`, and that first `BTN_TOUCH` was a press. The kernel sends a key only when it
    /// changes, so the key was up: the motion was a tool hovering or a finger approaching, never a
    /// touch.
    case notTouching
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
    /// On `moved` and `ended`, never on `began`, and never published: a single-touch contact
    /// adopted from motion before any `BTN_TOUCH`, whose touching is unknown until the key first
    /// changes (a press cancels it, `notTouching`; a release ends it). The tracker does not split
    /// it at a touch jump: a press would cancel only the part after the split, and the part
    /// before it, hover, would stay a completed stroke (an adversary's finding).
    public static let unsettled = ContactFlags(rawValue: 1 << 3)
    /// On a pen's `proximityIn` and `proximityOut` only, never published: the tool is in
    /// proximity (its `BTN_TOOL_*` is down) but its position is not known yet, so it is not
    /// published; touch arbitration still holds the group's fingers while it is near (an
    /// adversary's finding: a finger landing then was published). The tracker passes these to
    /// the arbitration and drops them; the tool's own `proximityIn` follows once it is placed.
    public static let positionPending = ContactFlags(rawValue: 1 << 4)
}

/// One contact lifecycle transition, produced at a `SYN_REPORT` (or a drop).
public struct ContactEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case began
        case moved
        case ended
        case cancelled(CancelReason)
        /// Not a contact transition: the tool hovers (never between `began` and `ended`).
        case hover(HoverPhase)
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
