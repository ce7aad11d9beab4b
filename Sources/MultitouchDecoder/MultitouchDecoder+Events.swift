import InputCore

// Recording phase: each event only updates the slot table and marks the slot touched; nothing is
// published until `flush` (libinput's `fallback_process_touch()` / `fallback_flush_mt_events()`).
extension MultitouchDecoder {
    @inline(__always)
    mutating func apply(_ event: InputEvent) {
        // Most events are absolute axes: tested first, the rest out of line, so that the compiler
        // does not fold both into one jump table (an indirect jump per event, mispredicted on
        // devices that interleave slots and axes).
        if event.type == .abs { return applyAbs(event.code, event.value) }
        applyOther(event)
    }

    @inline(never)
    private mutating func applyOther(_ event: InputEvent) {
        switch event.type {
        case .key:
            guard declared.keys.contains(event.code) else { return note(.undeclaredCode(type: .key, code: event.code)) }
            switch mode {
            case .slots:
                if ToolType.penTool(key: event.code) != nil { note(.penToolIgnored(code: event.code)) }
            case .singleTouch:
                if ToolType.penTool(key: event.code) != nil { return note(.penToolIgnored(code: event.code)) }
                if event.code == KeyCode.btnTouch {
                    // A single-touch contact is BTN_TOUCH; 0 stands in for its tracking ID. A key
                    // repeating its value is counted as a slot's repeat would be, in its own words.
                    switch (event.value != 0, slots[0].current) {
                    case (true, .contact(let c)) where c.trackingID == 0:
                        return note(.repeatedTouchKey(value: 1))
                    case (false, .empty):
                        return note(.repeatedTouchKey(value: 0))
                    default:
                        break
                    }
                    if event.value != 0, case .contact(let c) = slots[0].current, c.trackingID == nil {
                        // A press while a contact adopted from motion is down: the kernel sends a
                        // key only when it changes, so the key was up and that contact never
                        // touched (a pen hovering, a finger approaching a touchpad).
                        slots[0].committedNeverTouched = true
                    }
                    setTrackingID(slot: 0, event.value != 0 ? 0 : -1)
                }
            case .tool:
                applyToolKey(event.code, event.value)
            }
        case .msc:
            guard declared.msc.contains(event.code) else { return note(.undeclaredCode(type: .msc, code: event.code)) }
            if mode == .tool && event.code == MscCode.serial {
                setAxis(slot: 0, \.serial, UInt32(bitPattern: event.value), .serial)
            }
        case .syn:
            if event.code == SynCode.mtReport && !declared.isProtocolA { note(.protocolAReport) }
        default:
            break
        }
    }

    /// An absolute axis event, as the device's table (`DeclaredAxes`) says. The actions of nearly
    /// every event (a sample field, `ABS_MT_SLOT`, single-touch emulation) are tested one after the
    /// other (conditional branches the CPU predicts from the events before), the others out of line.
    @inline(__always)
    private mutating func applyAbs(_ code: UInt16, _ value: Int32) {
        guard code <= AbsCode.max else { return note(.undeclaredCode(type: .abs, code: code)) }
        let axis = declared.abs[Int(code)]
        if axis.action == .field {
            if axis.outOfRange(value) { noteOutOfRange(code, value, axis) }
            let s = currentSlot
            guard s >= 0 else { return note(.eventForInvalidSlot(code: code)) }
            if slots[s].set(at: Int(axis.offset), value, axis.bit) { appendTouched(s) }
        } else if axis.action == .slot {
            selectSlot(value)
        } else if axis.action == .unused {
            // ABS_X & co of a multitouch device: single-touch emulation, not needed.
            if axis.outOfRange(value) { noteOutOfRange(code, value, axis) }
        } else {
            applyOtherAbs(code, value, axis)
        }
    }

    @inline(never)
    private mutating func applyOtherAbs(_ code: UInt16, _ value: Int32, _ axis: DeclaredAxes.Axis) {
        switch axis.action {
        case .field, .slot, .unused:
            preconditionFailure("applyAbs handles \(axis.action)")
        case .trackingID:
            if value != -1 && axis.outOfRange(value) { noteOutOfRange(code, value, axis) }
            guard case .slots = mode else { return }
            let s = currentSlot
            guard s >= 0 else { return note(.eventForInvalidSlot(code: code)) }
            setTrackingID(slot: s, value)
        case .perSlotUnused:
            // WIDTH_*, BLOB_ID, TOOL_X/Y: not part of a stroke point.
            if axis.outOfRange(value) { noteOutOfRange(code, value, axis) }
            if currentSlot < 0 { note(.eventForInvalidSlot(code: code)) }
        case .undeclared:
            note(.undeclaredCode(type: .abs, code: code))
        }
    }

    @inline(never)
    private mutating func noteOutOfRange(_ code: UInt16, _ value: Int32, _ axis: DeclaredAxes.Axis) {
        note(.valueOutOfRange(code: code, value: value, range: axis.range))
    }

    private mutating func selectSlot(_ value: Int32) {
        if value >= 0 && Int(value) < slots.count {
            currentSlot = Int(value)
        } else {
            // libevdev clamps to the last slot and libinput to the slot count; both would
            // corrupt another contact. Ignore the events until the next valid ABS_MT_SLOT.
            currentSlot = -1
            note(.slotOutOfRange(value: value, count: slots.count))
        }
    }

    /// Pen devices: tool bits, `BTN_TOUCH` and stylus buttons are recorded here and decided at the
    /// frame's end (`MultitouchDecoder+Tool.swift`), so their order within a frame does not matter.
    private mutating func applyToolKey(_ code: UInt16, _ value: Int32) {
        if let tool = ToolType.penTool(key: code) {
            pen.setTool(tool, down: value != 0)
        } else if code == KeyCode.btnTouch {
            pen.touch = value != 0
        } else {
            let button = PenButtons(key: code)
            guard !button.isEmpty else { return }
            var buttons = slots[0].sample.buttons
            if value != 0 { buttons.insert(button) } else { buttons.remove(button) }
            setAxis(slot: 0, \.buttons, buttons, .buttons)
            return
        }
        markTouched(0)
    }

    @inline(__always)
    private mutating func markTouched(_ s: Int) {
        if !slots[s].touched {
            slots[s].touched = true
            appendTouched(s)
        }
    }

    /// Adds `s` to `touchedSlots`, which the flush goes through in slot order.
    @inline(__always)
    private mutating func appendTouched(_ s: Int) {
        touchedSlots.insert(s)
    }

    @inline(__always)
    private mutating func setAxis<Value: Equatable>(
        slot s: Int, _ field: WritableKeyPath<ContactSample, Value>, _ value: Value, _ bit: KnownAxes
    ) {
        if slots[s].set(field, value, bit) { appendTouched(s) }
    }

    mutating func setTrackingID(slot s: Int, _ value: Int32) {
        markTouched(s)
        if value < 0 {
            switch slots[s].current {
            case .contact(let c):
                finishWithinFrame(slot: s, c)
                slots[s].current = .empty
            case .empty:
                note(.repeatedContactEnd(slot: s))
            case .unknown:
                if origin == .device && slots[s].axesDirty {
                    // Axes moved a contact that was down before we were watching, and it lifts in
                    // this frame: adopted and ended within it (every transition is published).
                    slots[s].transients.append(TransientContact(contact: newContact(trackingID: nil, flags: .adopted), sample: slots[s].sample))
                } else if origin == .device {
                    // A seed frame reports empty slots as -1; only a device's own -1 is an oddity.
                    note(.unseenContactEnded(slot: s))
                }
                slots[s].current = .empty
            }
            return
        }
        switch slots[s].current {
        case .contact(let c) where c.trackingID == value:
            note(.repeatedTrackingID(slot: s, trackingID: value))
            return
        case .contact(let c):
            // N -> M without -1: the identity of the slot's contact changed (kernel doc), so the old
            // contact ends and a new one begins. libevdev discards this; libinput merges it.
            finishWithinFrame(slot: s, c)
        case .empty, .unknown:
            break
        }
        // In a resync or seed frame the contact's beginning was not seen.
        let flags: ContactFlags = origin == .device ? [] : .adopted
        slots[s].current = .contact(newContact(trackingID: value, flags: flags))
    }

    /// A contact of its own generation (unique per decoder: tracking IDs wrap).
    mutating func newContact(trackingID: Int32?, flags: ContactFlags) -> Contact {
        defer { nextGeneration += 1 }
        return Contact(generation: nextGeneration, trackingID: trackingID, flags: flags)
    }

    /// The contact `c` stops being the slot's contact during the frame. If it is the committed
    /// contact, the flush ends it with this sample; if it began in this frame, it is a transient.
    private mutating func finishWithinFrame(slot s: Int, _ c: Contact) {
        if case .contact(let committed) = slots[s].committed, committed.generation == c.generation {
            slots[s].committedEndSample = slots[s].sample
        } else {
            slots[s].transients.append(TransientContact(contact: c, sample: slots[s].sample))
        }
    }
}
