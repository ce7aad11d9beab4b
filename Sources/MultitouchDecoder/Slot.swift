/// Who occupies a slot.
enum Occupancy: Hashable, Sendable {
    /// Decoding started (or resumed after a drop) and nothing about this slot has been seen since.
    case unknown
    case empty
    case contact(Contact)
}

/// One contact in a slot. `generation` is unique per decoder, so two contacts with the same
/// tracking ID (16-bit IDs wrap) are never confused.
struct Contact: Hashable, Sendable {
    var generation: UInt64
    var trackingID: Int32?
    var flags: ContactFlags
    /// A palm, or a contact cancelled as one: never published again (libinput keeps a palm a
    /// palm until the touch ends, even if the firmware flips the tool type back).
    var suppressed = false
    /// Not published yet because its position is not known (docs/decoder.md, "No invented
    /// values"): its `began` comes with the first frame that completes the position.
    var pending = false

    /// On a device with `ABS_MT_DISTANCE`: the contact touches (its stroke is live) rather than
    /// hovers. Always true on other devices.
    var touching = true
    /// On a device with `ABS_MT_DISTANCE`: the contact has hovered, so its `proximityIn` was
    /// published and its lift publishes `proximityOut`. Contacts that only touch have no hover.
    var hovered = false

    /// It has been published (its `began`, or on a device that hovers its `proximityIn`) and has
    /// not ended.
    var published: Bool { !suppressed && !pending }
}

/// A contact that began and ended (or was replaced) within one frame.
struct TransientContact: Hashable, Sendable {
    var contact: Contact
    var sample: ContactSample
}

/// One slot: the committed state as of the last `SYN_REPORT`, and what the current frame changed.
struct Slot: Hashable, Sendable {
    var sample = ContactSample(known: [])
    var committed = Occupancy.unknown
    var current = Occupancy.unknown
    /// A tracked axis changed during the current frame.
    var axesDirty = false
    /// The slot is in the current frame's list of touched slots.
    var touched = false
    /// The committed contact ended or was replaced during the frame; its last sample.
    var committedEndSample: ContactSample?
    /// The committed contact, adopted from motion on a single-touch device, was found never to
    /// have touched (`CancelReason.notTouching`): its end is a cancel.
    var committedNeverTouched = false
    /// Contacts that began and ended within the frame, in order.
    var transients: [TransientContact] = []

    /// The frame's end: what the frame made of the slot becomes its committed state.
    @inline(__always)
    mutating func commit() {
        committed = current
        committedEndSample = nil
        committedNeverTouched = false
        axesDirty = false
        touched = false
    }

    /// Records `value` for the `Int32` axis at byte `offset` of the sample (known as `bit`, from
    /// `DeclaredAxes`) when it changes it or makes it known. Returns whether it did, which touches
    /// the slot (the caller adds it to the frame's touched slots, again or not: no branch on
    /// whether this is the slot's first event in the frame, which the CPU mispredicts).
    @inline(__always)
    mutating func set(at offset: Int, _ value: Int32, _ bit: KnownAxes) -> Bool {
        let old = withUnsafeBytes(of: &sample) { $0.load(fromByteOffset: offset, as: Int32.self) }
        guard old != value || !sample.known.contains(bit) else { return false }
        sample.known.insert(bit)
        withUnsafeMutableBytes(of: &sample) { $0.storeBytes(of: value, toByteOffset: offset, as: Int32.self) }
        axesDirty = true
        touched = true
        return true
    }

    /// Makes `value` the known state of the `Int32` axis at byte `offset` (known as `bit`) before
    /// any event: what the device reported before it was opened or recorded. Touches nothing.
    mutating func seed(at offset: Int, _ value: Int32, _ bit: KnownAxes) {
        sample.known.insert(bit)
        withUnsafeMutableBytes(of: &sample) { $0.storeBytes(of: value, toByteOffset: offset, as: Int32.self) }
    }

    /// Records `value` for the axis `field` (known as `bit`) when it changes it or makes it known.
    /// Returns whether that touched the slot for the first time in the frame. One access to the
    /// slot for the per-event path.
    @inline(__always)
    mutating func set<Value: Equatable>(_ field: WritableKeyPath<ContactSample, Value>, _ value: Value, _ bit: KnownAxes) -> Bool {
        guard sample[keyPath: field] != value || !sample.known.contains(bit) else { return false }
        sample.known.insert(bit)
        sample[keyPath: field] = value
        axesDirty = true
        if touched { return false }
        touched = true
        return true
    }
}
