import InputCore

/// What the kernel's input core (`drivers/input/input.c`, `input_handle_event`) passes on to evdev
/// readers when a recording's events are written into a uinput device: the expectation for a run
/// through the kernel is `strokes replay` of this, not of the raw file.
///
/// Recordings can hold events a current kernel drops: an `ABS_MT_*` value equal to the slot's
/// current value (`input_handle_abs_event`), a key already in that state, a redundant
/// `ABS_MT_SLOT` (the kernel stages slot changes and emits `ABS_MT_SLOT` only before a value it
/// passes), and a frame left empty by all that (`SYN_REPORT` is passed only after at least one
/// other event). The uinput device is made with fuzz 0, so no defuzzing happens.
struct KernelInputFilter {
    private let description: DeviceDescription
    private var abs: [UInt16: Int32] = [:]
    private var slots: [[UInt16: Int32]] = []
    /// `mt->slot`: where MT values go.
    private var slot = 0
    /// `absinfo[ABS_MT_SLOT].value`: the slot readers were last told about.
    private var reportedSlot: Int32
    private var keys: Set<UInt16> = []
    private var pending: [InputEvent] = []

    init(description: DeviceDescription) {
        self.description = description
        for (code, info) in description.absInfo where !AbsCode.isPerSlot(code) { abs[code] = info.value }
        reportedSlot = description.absInfo[AbsCode.mtSlot]?.value ?? 0
        // uinput calls input_mt_init_slots() when ABS_MT_SLOT is set: every slot starts with
        // tracking ID -1 and zeros.
        if let info = description.absInfo[AbsCode.mtSlot], info.maximum >= 0 {
            let count = Int(info.maximum) + 1
            slots = Array(repeating: [AbsCode.mtTrackingID: -1], count: count)
        }
    }

    /// The events readers see, with the `SYN_REPORT`s of the frames that survive.
    static func apply(_ events: [InputEvent], description: DeviceDescription) -> [InputEvent] {
        var filter = KernelInputFilter(description: description)
        var out: [InputEvent] = []
        out.reserveCapacity(events.count)
        for e in events { filter.feed(e, into: &out) }
        return out
    }

    mutating func feed(_ e: InputEvent, into out: inout [InputEvent]) {
        switch e.type {
        case .syn:
            switch e.code {
            case SynCode.report:
                if !pending.isEmpty {
                    out.append(contentsOf: pending)
                    out.append(e)
                }
                pending.removeAll(keepingCapacity: true)
            case SynCode.dropped:
                break
            default:
                pending.append(e)
            }
        case .key:
            guard description.has(.key, e.code) else { return }
            if e.value == 2 {
                pending.append(e)
            } else if keys.contains(e.code) != (e.value != 0) {
                if e.value != 0 { keys.insert(e.code) } else { keys.remove(e.code) }
                pending.append(e)
            }
        case .abs:
            guard description.has(.abs, e.code) else { return }
            handleAbs(e)
        case .rel:
            if e.value != 0 { pending.append(e) }
        default:
            if description.has(e.type, e.code) { pending.append(e) }
        }
    }

    private mutating func handleAbs(_ e: InputEvent) {
        let hasMT = !slots.isEmpty
        if e.code == AbsCode.mtSlot {
            if hasMT && e.value >= 0 && Int(e.value) < slots.count { slot = Int(e.value) }
            return
        }
        if AbsCode.isPerSlot(e.code) {
            // Protocol A (no slots): per-slot codes pass unfiltered.
            guard hasMT else {
                pending.append(e)
                return
            }
            if slots[slot][e.code, default: 0] == e.value { return }
            slots[slot][e.code] = e.value
            if Int32(slot) != reportedSlot {
                reportedSlot = Int32(slot)
                pending.append(InputEvent(time: e.time, type: .abs, code: AbsCode.mtSlot, value: reportedSlot))
            }
            pending.append(e)
            return
        }
        if abs[e.code] == e.value { return }
        abs[e.code] = e.value
        pending.append(e)
    }
}
