import InputCore

/// Turns evdev frames into contact lifecycle events, following the kernel's multitouch protocol B
/// (`Documentation/input/multi-touch-protocol.rst`). Pure: no I/O, no clock.
///
/// Semantics (each is pinned by a test of the same name in `MultitouchDecoderTests`):
/// - Per-slot state accumulates during a frame and is committed at `SYN_REPORT`. Every transition
///   within the frame is published: a contact that begins and ends inside one frame yields
///   `began` + `ended`.
/// - `ABS_MT_TRACKING_ID -1` ends the slot's contact; a different tracking ID in an occupied slot
///   (with or without a -1 before it) ends the old contact and begins a new one.
/// - The first per-slot event applies to `ABS_MT_SLOT`'s initial value from the description. A
///   slot's state is unknown until its first event: axis updates without a tracking ID adopt a
///   contact that was already down (`began` with `.adopted`, tracking ID unknown); a -1 ends a
///   contact that was never seen, which publishes nothing, unless the frame updated the slot's
///   axes before it (adopted and ended in the frame).
/// - `ABS_MT_TOOL_TYPE = MT_TOOL_PALM` cancels a live contact (`.palm`); a contact that begins as
///   a palm is never published. A palm that turns back into a finger stays suppressed until it
///   lifts; its next touch is a new stroke.
/// - `SYN_DROPPED` (`FrameInput.dropped`): every published live contact is cancelled
///   (`.eventsDropped`) because its fate is unknown, and every slot becomes unknown again.
/// - Single-touch devices (`ABS_X`/`ABS_Y` + `BTN_TOUCH`) are one slot whose contact is
///   `BTN_TOUCH`. Protocol A devices are decoded through their single-touch axes when they have
///   them and refused otherwise.
/// - Slots out of range, events for undeclared codes and values outside absinfo are counted in
///   `diagnostics`, never trapped on.
/// - No invented values: a contact is published once its position is known, and axes never
///   reported are unknown (`ContactSample.known`).
/// - Pen devices (`BTN_TOOL_PEN` & co.) are one tool: its touch is a stroke, its proximity
///   without touch is `hover` (`MultitouchDecoder+Tool.swift`). On devices with `ABS_MT_DISTANCE`
///   a contact's stroke is its time at distance 0; hovering contacts get `hover` events.
///   PenTests, MultitouchHoverTests and UnknownPositionTests pin these rules.
public struct MultitouchDecoder: Sendable {
    public enum Mode: Hashable, Sendable {
        case slots(count: Int)
        case singleTouch
        /// A pen device: one tool, proximity and touch (`MultitouchDecoder+Tool.swift`).
        case tool
    }

    public let mode: Mode
    public let deviceFlags: ContactFlags
    public var diagnostics = DecoderDiagnostics()
    /// What the last `process` or `cancelAll` call met, the first of each kind (every one is
    /// counted in `diagnostics`): for the caller to log.
    public private(set) var reports: [DecoderDiagnostic] = []

    var slots: SlotTable
    /// The slot per-slot events apply to; -1 after an out-of-range `ABS_MT_SLOT` (none): an `Int`
    /// the per-event path tests with one comparison, where an optional's tag and value were two
    /// loads.
    var currentSlot: Int
    /// The slots the current frame touched (`Slot.touched`).
    var touchedSlots = SlotBits()
    var nextGeneration: UInt64 = 1
    let declared: DeclaredAxes
    /// Where the frame being decoded came from (`MultitouchDecoder+Resync.swift`).
    var origin = FrameOrigin.device
    /// The tool of a pen device (unused otherwise).
    var pen: PenState

    /// - Throws: `DecoderError` for devices `DeviceDescription.touchDecoding` refuses.
    public init(description: DeviceDescription) throws(DecoderError) {
        switch description.touchDecoding {
        case .slots(let count):
            mode = .slots(count: count)
            slots = SlotTable(count: count)
            let initial = Int(description.initialSlot)
            // Out of range (a crafted header; the kernel keeps it in range): no slot until the
            // first valid ABS_MT_SLOT, as one in the stream; counted below.
            currentSlot = initial >= 0 && initial < count ? initial : -1
        case .singleTouch:
            // Protocol A devices too, through their single-touch emulation (docs/decoder.md).
            mode = .singleTouch
            slots = SlotTable(count: 1)
            currentSlot = 0
        case .tool:
            mode = .tool
            slots = SlotTable(count: 1)
            currentSlot = 0
        case .refused(.protocolAWithoutSingleTouch):
            throw .protocolAUnsupported(deviceName: description.name)
        case .refused(.notATouchDevice):
            throw .notATouchDevice(deviceName: description.name)
        case .refused(.tooManySlots(let count)):
            throw .tooManySlots(deviceName: description.name, count: count)
        }
        deviceFlags = description.isSemiMT ? .semiMT : []
        declared = DeclaredAxes(description, mode: mode)
        pen = PenState(description: description)
        if currentSlot < 0 { diagnostics[.slotOutOfRange] += 1 }
        seedPosition(description)
    }

    /// A single-touch or pen position starts where the device last reported it, when the
    /// description knows (`currentValues`), as libinput's does (`fallback_dispatch_init_abs()`):
    /// the kernel sends an axis only when it changes, so a touch on the row the device last
    /// reported sends `ABS_X` alone, and waiting for an `ABS_Y` lost the whole touch.
    private mutating func seedPosition(_ description: DeviceDescription) {
        guard mode == .singleTouch || mode == .tool else { return }
        for code in [AbsCode.x, AbsCode.y] where description.currentValues.contains(code) {
            let axis = declared.abs[Int(code)]
            guard axis.action == .field, let info = description.absInfo[code] else { continue }
            slots[0].seed(at: Int(axis.offset), info.value, axis.bit)
        }
    }

    /// Number of slots (1 for single-touch).
    public var slotCount: Int { slots.count }

    /// Published contacts currently down.
    public var activeContacts: Int {
        if mode == .tool { return pen.strokeLive ? 1 : 0 }
        return slots.reduce(0) { n, slot in
            if case .contact(let c) = slot.committed, c.published && c.touching { return n + 1 }
            return n
        }
    }

    /// Decodes one frame or drop marker, appending the resulting events to `out`.
    public mutating func process(_ input: FrameInput, into out: inout EventBuffer<ContactEvent>) {
        switch input {
        case .frame(let frame):
            frame.events.withUnsafeBufferPointer { decode($0, time: frame.time, into: &out) }
        case .dropped(let time):
            dropped(time: time, into: &out)
        }
    }

    /// Decodes one frame read in place or a drop marker, appending the resulting events to `out`:
    /// the same as `process(_:into:)` with the frame's events in an array.
    public mutating func process(_ input: FrameViewInput, into out: inout EventBuffer<ContactEvent>) {
        switch input {
        case .frame(let frame):
            decode(frame.events, time: frame.time, into: &out)
        case .dropped(let time):
            dropped(time: time, into: &out)
        }
    }

    /// Lost events (`SYN_DROPPED` in a recording): every published contact is cancelled and every
    /// slot is unknown, its position too. The current slot stays (the kernel sends `ABS_MT_SLOT`
    /// only when it changes, so a finger that goes on in it sends none), but the lost events may
    /// have switched it: a contact is adopted only once both its coordinates are reported again,
    /// so that no point joins one finger's x to another's y (docs/decoder.md, "Lost events").
    private mutating func dropped(time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        cancelAll(reason: .eventsDropped, time: time, into: &out)
        note(.dropped)
        // The tool type too: a value the kernel sends again after a drop changed during it (the
        // kernel sends only changes), so a palm reported again is news, and adopts its contact as a
        // palm; the value itself is kept (the kernel's state until told otherwise).
        for i in slots.indices { slots[i].sample.known.subtract([.x, .y, .toolType]) }
    }

    private mutating func decode(_ events: UnsafeBufferPointer<InputEvent>, time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        clearReports()
        slots.makeUnique()
        out.makeUnique()
        for event in events { apply(event) }
        if mode == .tool {
            flushTool(time: time, into: &out)
        } else {
            flush(time: time, into: &out)
        }
    }

    /// Counts `d` and reports it, unless one of its kind was reported during this call.
    mutating func note(_ d: DecoderDiagnostic) {
        let kind = d.kind
        diagnostics[kind] += 1
        if !reports.contains(where: { $0.kind == kind }) { reports.append(d) }
    }

    @inline(__always)
    mutating func clearReports() {
        if !reports.isEmpty { reports.removeAll(keepingCapacity: true) }
    }

    /// Cancels every published live contact with `reason` (device removed, shutdown, lost events)
    /// and forgets what is known about every slot.
    public mutating func cancelAll(reason: CancelReason, time: Timestamp, into out: inout EventBuffer<ContactEvent>) {
        clearReports()
        slots.makeUnique()
        out.makeUnique()
        if mode == .tool {
            cancelTool(reason: reason, time: time, into: &out)
            return
        }
        for index in slots.indices {
            if case .contact(let c) = slots[index].committed, c.published {
                if c.touching {
                    out.appendAssumingUnique(event(.cancelled(reason), slot: index, contact: c, time: time, sample: slots[index].sample))
                }
                if c.hovered {
                    out.appendAssumingUnique(event(.hover(.proximityOut), slot: index, contact: c, time: time, sample: slots[index].sample))
                }
            }
            slots[index].committed = .unknown
            slots[index].current = .unknown
        }
    }

    // The same, appending to an array (tests, and callers that keep the events), through a
    // buffer of their own.

    public mutating func process(_ input: FrameInput, into out: inout [ContactEvent]) {
        EventBuffer.appending(to: &out) { process(input, into: &$0) }
    }

    public mutating func process(_ input: FrameViewInput, into out: inout [ContactEvent]) {
        EventBuffer.appending(to: &out) { process(input, into: &$0) }
    }

    public mutating func cancelAll(reason: CancelReason, time: Timestamp, into out: inout [ContactEvent]) {
        EventBuffer.appending(to: &out) { cancelAll(reason: reason, time: time, into: &$0) }
    }

    /// A `began`: what is special about the stroke, so never `unsettled` (a flag of the motion).
    func beganEvent(slot: Int, contact: Contact, time: Timestamp, sample: ContactSample) -> ContactEvent {
        var e = event(.began, slot: slot, contact: contact, time: time, sample: sample)
        e.flags.remove(.unsettled)
        return e
    }

    func event(_ kind: ContactEvent.Kind, slot: Int, contact: Contact, time: Timestamp, sample: ContactSample) -> ContactEvent {
        ContactEvent(
            kind: kind, slot: Int32(slot), trackingID: mode == .singleTouch ? nil : contact.trackingID, time: time,
            sample: sample, flags: contact.flags.union(deviceFlags)
        )
    }
}
