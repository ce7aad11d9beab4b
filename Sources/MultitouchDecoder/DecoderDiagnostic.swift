import InputCore

/// One case the decoder met and handled, as a value the caller can log (the decoder itself stays
/// pure): each is also counted in `DecoderDiagnostics`. Told apart by origin as libinput does
/// (`evdev_log_bug_kernel()` and `evdev_log_bug_libinput()` in libinput's `src/evdev.h`).
///
/// `MultitouchDecoder.reports` holds those of the last call, the first of each kind.
public enum DecoderDiagnostic: Hashable, Sendable {
    /// `ABS_MT_SLOT value` outside `0..<count`; the events up to the next valid slot are ignored.
    case slotOutOfRange(value: Int32, count: Int)
    /// A per-slot event while the slot is invalid (after `slotOutOfRange`); ignored.
    case eventForInvalidSlot(code: UInt16)
    /// An event for a code the device does not declare; ignored.
    case undeclaredCode(type: EventType, code: UInt16)
    /// An axis value outside the declared range; kept as reported.
    case valueOutOfRange(code: UInt16, value: Int32, range: ClosedRange<Int32>)
    /// A slot's tracking ID repeated for the contact that holds it; ignored.
    case repeatedTrackingID(slot: Int, trackingID: Int32)
    /// `ABS_MT_TRACKING_ID -1` for a slot already empty; ignored.
    case repeatedContactEnd(slot: Int)
    /// A single-touch device's `BTN_TOUCH` repeating the value it has (1 while down, 0 while up);
    /// ignored. Counted with the slots' repeats (`repeatedTrackingIDs`, `repeatedContactEnds`).
    case repeatedTouchKey(value: Int32)
    /// `SYN_MT_REPORT` (protocol A) from a device that is not protocol A (slots, single touch); ignored.
    case protocolAReport
    /// `SYN_DROPPED`: the kernel's buffer overflowed and events were lost; live strokes are cancelled.
    case dropped
    /// libevdev's resync after a drop.
    case resynced
    /// A contact ended before its position was seen, so it was never published: it was down
    /// before the stream began, or its slot's position was reported before it (the kernel sends
    /// an axis only when it changes, so a contact that lands where the slot's last one was sends
    /// no position; a recording that starts later never saw it). Nobody's fault.
    case unseenContactEnded(slot: Int)
    /// A palm (`MT_TOOL_PALM`) that was never published.
    case palmSuppressed(slot: Int)
    /// A pen tool's `BTN_TOOL_*` on a touch device (a pen sharing the touch's node, as
    /// `wacom_w8001` had before Linux 4.7): the pen is not decoded, its events are ignored.
    case penToolIgnored(code: UInt16)

    /// Who is at fault, as libinput tells its log messages apart.
    public enum Origin: String, Hashable, Sendable {
        /// The kernel or the device broke the input protocol (libinput's `evdev_log_bug_kernel`):
        /// logged as "kernel bug:".
        case kernel
        /// A strokes invariant broke (libinput's `evdev_log_bug_libinput`): logged as "strokes bug:".
        case strokes
        /// Nobody's bug: events were lost, or the decoder applied one of its rules (a palm, a
        /// contact already down). Worth a notice, not a bug report.
        case notice
    }

    /// The `DecoderDiagnostics` counter it is counted in; one kind per counter.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case slotOutOfRange, eventsForInvalidSlot, undeclaredCodes, valuesOutOfRange, repeatedTrackingIDs
        case repeatedContactEnds, unseenContactsEnded, drops, resyncs, palmsSuppressed, protocolAReports
        case penToolsIgnored
    }

    public var kind: Kind {
        switch self {
        case .slotOutOfRange: return .slotOutOfRange
        case .eventForInvalidSlot: return .eventsForInvalidSlot
        case .undeclaredCode: return .undeclaredCodes
        case .valueOutOfRange: return .valuesOutOfRange
        case .repeatedTrackingID: return .repeatedTrackingIDs
        case .repeatedContactEnd: return .repeatedContactEnds
        case .repeatedTouchKey(let value): return value == 0 ? .repeatedContactEnds : .repeatedTrackingIDs
        case .protocolAReport: return .protocolAReports
        case .dropped: return .drops
        case .resynced: return .resyncs
        case .unseenContactEnded: return .unseenContactsEnded
        case .palmSuppressed: return .palmsSuppressed
        case .penToolIgnored: return .penToolsIgnored
        }
    }

    public var origin: Origin {
        switch self {
        case .slotOutOfRange, .eventForInvalidSlot, .undeclaredCode, .valueOutOfRange, .repeatedTrackingID,
            .repeatedContactEnd, .repeatedTouchKey, .protocolAReport:
            return .kernel
        case .dropped, .resynced, .unseenContactEnded, .palmSuppressed, .penToolIgnored:
            return .notice
        }
    }

    /// What happened, for a log line, with codes named by `name` (the daemon passes libevdev's
    /// names; by default `type:code` in decimal). The origin's prefix is the caller's.
    public func message(naming name: (EventType, UInt16) -> String = { "\($0.rawValue):\($1)" }) -> String {
        switch self {
        case .slotOutOfRange(let value, let count):
            return "ABS_MT_SLOT \(value) outside 0..<\(count); events ignored until a valid slot"
        case .eventForInvalidSlot(let code):
            return "\(name(.abs, code)) for an invalid slot; ignored"
        case .undeclaredCode(let type, let code):
            return "\(name(type, code)), which the device does not declare; ignored"
        case .valueOutOfRange(let code, let value, let range):
            return "\(name(.abs, code)) \(value) outside its declared \(range.lowerBound)...\(range.upperBound); kept"
        case .repeatedTrackingID(let slot, let id):
            return "slot \(slot): ABS_MT_TRACKING_ID \(id) repeated for the contact that has it; ignored"
        case .repeatedContactEnd(let slot):
            return "slot \(slot): ABS_MT_TRACKING_ID -1 for an empty slot; ignored"
        case .repeatedTouchKey(let value):
            return "BTN_TOUCH \(value) while the key is already \(value == 0 ? "up" : "down"); ignored"
        case .protocolAReport:
            return "SYN_MT_REPORT (protocol A) on a protocol B or single-touch device; ignored"
        case .dropped:
            return "SYN_DROPPED: events were lost (the kernel's buffer overflowed); live strokes cancelled"
        case .resynced:
            return "resynced after SYN_DROPPED"
        case .unseenContactEnded(let slot):
            return "slot \(slot): a contact ended before strokes saw its position (down, or positioned, before strokes watched); not published"
        case .palmSuppressed(let slot):
            return "slot \(slot): a palm (MT_TOOL_PALM) was not published"
        case .penToolIgnored(let code):
            return "\(name(.key, code)) on a touch device: a pen sharing a touch device's node is not decoded; ignored"
        }
    }
}
