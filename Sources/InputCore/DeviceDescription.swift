/// The kernel's `struct input_id`.
public struct InputID: Hashable, Sendable {
    public var bustype: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bustype: UInt16, vendor: UInt16, product: UInt16, version: UInt16) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// What a device is and what it can send: the part of an evdev device that a recording describes
/// and that `libevdev` reports for a live device.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var id: InputID
    /// `INPUT_PROP_*` values.
    public var properties: Set<UInt16>
    /// Supported codes per event type. `EV_SYN` is always implied.
    public var codes: [EventType: Set<UInt16>]
    /// Axis information for every supported `EV_ABS` code.
    public var absInfo: [UInt16: AbsInfo]
    /// The axes whose `absInfo` value is the device's state when it was described: every axis of
    /// a live device (`EVIOCGABS`), those with a `Value` line in an evtest or evemu 1.3 header;
    /// none of a libinput recording, which has no values (they read 0 there, which is no state).
    /// A single-touch or pen position starts from them (the kernel sends an axis only when it
    /// changes, so a touch on the row the device last reported sends no `ABS_Y`).
    public var currentValues: Set<UInt16>

    public init(
        name: String,
        id: InputID,
        properties: Set<UInt16> = [],
        codes: [EventType: Set<UInt16>] = [:],
        absInfo: [UInt16: AbsInfo] = [:],
        currentValues: Set<UInt16> = []
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.currentValues = currentValues.intersection(absInfo.keys)
        // Every ABS code with absinfo is a supported code, whatever the bitmask said.
        if !absInfo.isEmpty {
            self.codes[.abs, default: []].formUnion(absInfo.keys)
        }
    }

    @inlinable
    public func has(_ type: EventType, _ code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    public func hasProperty(_ property: UInt16) -> Bool { properties.contains(property) }

    /// Number of multitouch slots (`ABS_MT_SLOT` maximum + 1), or nil when the device has no
    /// slots or is "fake MT" (libevdev: `ABS_RESERVED` set means the MT codes are not multitouch).
    public var slotCount: Int? {
        guard let slot = absInfo[AbsCode.mtSlot], !has(.abs, AbsCode.reserved) else { return nil }
        guard slot.minimum == 0, slot.maximum >= 0 else { return nil }
        return Int(slot.maximum) + 1
    }

    /// The slot the first per-slot event applies to when no `ABS_MT_SLOT` precedes it.
    public var initialSlot: Int32 { absInfo[AbsCode.mtSlot]?.value ?? 0 }
}
