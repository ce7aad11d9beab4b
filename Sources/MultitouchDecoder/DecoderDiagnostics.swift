/// Counts of what the decoder saw and handled without publishing: device or kernel oddities, not
/// decoder bugs (those trap in debug builds), one counter per `DecoderDiagnostic.Kind`; each
/// case is also reported as a `DecoderDiagnostic` for the caller to log.
public struct DecoderDiagnostics: Hashable, Sendable {
    /// `ABS_MT_SLOT` values outside `0..<slotCount`; the events that followed until a valid slot
    /// were ignored and are counted in `eventsForInvalidSlot`.
    public var slotOutOfRange = 0
    public var eventsForInvalidSlot = 0
    /// Events for codes the device does not declare; ignored.
    public var undeclaredCodes = 0
    /// Axis values outside the declared minimum...maximum; kept as reported.
    public var valuesOutOfRange = 0
    /// A tracking ID repeated for the contact that already holds it; ignored (libevdev discards it).
    public var repeatedTrackingIDs = 0
    /// `ABS_MT_TRACKING_ID -1` for a slot already empty; ignored.
    public var repeatedContactEnds = 0
    /// Contacts that ended before their position was seen: never published (down before the
    /// stream began, or positioned before it: the kernel sends only changes).
    public var unseenContactsEnded = 0
    /// `SYN_DROPPED` markers in the stream.
    public var drops = 0
    /// Live resyncs after `SYN_DROPPED` (libevdev sync frames).
    public var resyncs = 0
    /// Contacts that began as palms and were never published.
    public var palmsSuppressed = 0
    /// `SYN_MT_REPORT` (protocol A) events in a stream decoded as slots or single touch; ignored.
    public var protocolAReports = 0
    /// Pen tools' `BTN_TOOL_*` events on a touch device (slots, protocol A, single touch): the
    /// pen of a device that shares one node with the touch is not decoded.
    public var penToolsIgnored = 0

    public init() {}

    /// The counter of `kind`.
    public subscript(kind: DecoderDiagnostic.Kind) -> Int {
        get {
            switch kind {
            case .slotOutOfRange: return slotOutOfRange
            case .eventsForInvalidSlot: return eventsForInvalidSlot
            case .undeclaredCodes: return undeclaredCodes
            case .valuesOutOfRange: return valuesOutOfRange
            case .repeatedTrackingIDs: return repeatedTrackingIDs
            case .repeatedContactEnds: return repeatedContactEnds
            case .unseenContactsEnded: return unseenContactsEnded
            case .drops: return drops
            case .resyncs: return resyncs
            case .palmsSuppressed: return palmsSuppressed
            case .protocolAReports: return protocolAReports
            case .penToolsIgnored: return penToolsIgnored
            }
        }
        set {
            switch kind {
            case .slotOutOfRange: slotOutOfRange = newValue
            case .eventsForInvalidSlot: eventsForInvalidSlot = newValue
            case .undeclaredCodes: undeclaredCodes = newValue
            case .valuesOutOfRange: valuesOutOfRange = newValue
            case .repeatedTrackingIDs: repeatedTrackingIDs = newValue
            case .repeatedContactEnds: repeatedContactEnds = newValue
            case .unseenContactsEnded: unseenContactsEnded = newValue
            case .drops: drops = newValue
            case .resyncs: resyncs = newValue
            case .palmsSuppressed: palmsSuppressed = newValue
            case .protocolAReports: protocolAReports = newValue
            case .penToolsIgnored: penToolsIgnored = newValue
            }
        }
    }

    /// Name and count of every non-zero counter, for summaries.
    public var nonZero: [(String, Int)] {
        [
            ("slotOutOfRange", slotOutOfRange), ("eventsForInvalidSlot", eventsForInvalidSlot),
            ("undeclaredCodes", undeclaredCodes), ("valuesOutOfRange", valuesOutOfRange),
            ("repeatedTrackingIDs", repeatedTrackingIDs), ("repeatedContactEnds", repeatedContactEnds),
            ("unseenContactsEnded", unseenContactsEnded), ("drops", drops), ("resyncs", resyncs), ("palmsSuppressed", palmsSuppressed),
            ("protocolAReports", protocolAReports), ("penToolsIgnored", penToolsIgnored),
        ].filter { $0.1 != 0 }
    }
}
