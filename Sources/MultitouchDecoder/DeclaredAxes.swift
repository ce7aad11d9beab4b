import InputCore

/// What the decoder does with each absolute axis of the device, as a flat table for the
/// per-event path: one bounds check and one load per event decide it, where a switch over the
/// decoding mode and then over the code did (libevdev's per-code tables, for one device).
struct DeclaredAxes: Hashable, Sendable {
    /// What an event of an axis does.
    enum Action: UInt8, Hashable, Sendable {
        /// The device does not declare the axis: counted (`undeclaredCode`), ignored.
        case undeclared
        /// Declared but not part of a stroke point in this mode (`ABS_X` of a multitouch device,
        /// `ABS_MT_*` of a single-touch one): range-checked, ignored.
        case unused
        /// A per-slot axis strokes do not keep (`ABS_MT_WIDTH_*`, `ABS_MT_BLOB_ID`, ...):
        /// range-checked, and the current slot must be valid.
        case perSlotUnused
        /// `ABS_MT_SLOT`.
        case slot
        /// `ABS_MT_TRACKING_ID` (-1 is no value outside the range: it ends the contact); ignored
        /// but for its range outside `slots` mode.
        case trackingID
        /// A value of the current slot's `ContactSample`, at `Axis.offset`, known as `Axis.bit`.
        case field
    }

    /// One absolute axis: what its events do, and its range when it has one.
    struct Axis: Hashable, Sendable {
        /// The range as its lowest value and its width, so that the per-event test is one
        /// subtraction and one unsigned comparison; no range (undeclared, or absinfo with
        /// `minimum > maximum`) is all of `Int32`, which nothing is outside.
        var minimum = Int32.min
        var span = UInt32.max
        var action = Action.undeclared
        /// For `field`: the byte offset of the `Int32` in `ContactSample`, and its `KnownAxes` bit.
        var offset: UInt8 = 0
        var bit = KnownAxes()

        init() {}

        init(minimum: Int32, maximum: Int32, action: Action) {
            self.action = action
            if minimum <= maximum {
                self.minimum = minimum
                span = UInt32(bitPattern: maximum &- minimum)
            }
        }

        /// Whether `value` is outside a range the axis has.
        @inline(__always)
        func outOfRange(_ value: Int32) -> Bool { UInt32(bitPattern: value &- minimum) > span }
        var range: ClosedRange<Int32> { minimum...(minimum &+ Int32(bitPattern: span)) }
    }

    /// Indexed by code, `AbsCode.max` + 1 of them.
    var abs: [Axis] = Array(repeating: Axis(), count: Int(AbsCode.max) + 1)
    /// The key and `EV_MSC` codes the device declares: an event of any other is counted
    /// (`undeclaredCode`) and ignored, a tool bit included (the kernel never sends one; an edited
    /// or mismatched recording does).
    var keys: Set<UInt16> = []
    var msc: Set<UInt16> = []
    /// `ABS_MT_DISTANCE`: contacts may hover (docs/decoder.md, "Hovering contacts").
    var hasMTDistance = false
    /// A protocol A device (decoded through its single-touch axes): `SYN_MT_REPORT` is its
    /// protocol, not a fault.
    var isProtocolA = false

    init(_ description: DeviceDescription, mode: MultitouchDecoder.Mode) {
        let fields = DeclaredAxes.fields(mode)
        for (code, info) in description.absInfo where code <= AbsCode.max {
            var axis = Axis(minimum: info.minimum, maximum: info.maximum, action: .unused)
            if let (path, bit) = fields[code] {
                axis.action = .field
                axis.offset = UInt8(MemoryLayout<ContactSample>.offset(of: path)!)
                axis.bit = bit
            } else if code == AbsCode.mtTrackingID {
                axis.action = .trackingID
            } else if code == AbsCode.mtSlot {
                // Never out of range: a slot outside the device's is `slotOutOfRange`.
                axis = Axis(minimum: 1, maximum: 0, action: .unused)
                if case .slots = mode { axis.action = .slot }
            } else if case .slots = mode, AbsCode.isPerSlot(code) {
                axis.action = .perSlotUnused
            }
            abs[Int(code)] = axis
        }
        keys = description.codes[.key] ?? []
        msc = description.codes[.msc] ?? []
        hasMTDistance = description.touchProtocol == .slots && description.has(.abs, AbsCode.mtDistance)
        isProtocolA = description.touchProtocol == .anonymous
    }

    /// The axes each mode keeps in a contact's sample.
    private static func fields(_ mode: MultitouchDecoder.Mode) -> [UInt16: (WritableKeyPath<ContactSample, Int32>, KnownAxes)] {
        switch mode {
        case .slots:
            return [
                AbsCode.mtPositionX: (\.x, .x), AbsCode.mtPositionY: (\.y, .y),
                AbsCode.mtPressure: (\.pressure, .pressure), AbsCode.mtTouchMajor: (\.touchMajor, .touchMajor),
                AbsCode.mtTouchMinor: (\.touchMinor, .touchMinor), AbsCode.mtOrientation: (\.orientation, .orientation),
                AbsCode.mtToolType: (\.toolType, .toolType), AbsCode.mtDistance: (\.distance, .distance),
            ]
        case .singleTouch:
            return [AbsCode.x: (\.x, .x), AbsCode.y: (\.y, .y), AbsCode.pressure: (\.pressure, .pressure)]
        case .tool:
            return [
                AbsCode.x: (\.x, .x), AbsCode.y: (\.y, .y), AbsCode.pressure: (\.pressure, .pressure),
                AbsCode.distance: (\.distance, .distance), AbsCode.tiltX: (\.tiltX, .tiltX),
                AbsCode.tiltY: (\.tiltY, .tiltY), AbsCode.z: (\.rotation, .rotation),
                AbsCode.wheel: (\.wheel, .wheel), AbsCode.misc: (\.toolID, .toolID),
            ]
        }
    }
}
