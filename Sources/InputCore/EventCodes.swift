/// An evdev event type (`EV_*` in `linux/input-event-codes.h`).
public struct EventType: RawRepresentable, Hashable, Comparable, Sendable {
    public var rawValue: UInt16
    @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable public init(_ rawValue: UInt16) { self.rawValue = rawValue }
    public static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }

    /// The corresponding C constant is `EV_SYN`.
    @inlinable public static var syn: EventType { EventType(0x00) }
    /// The corresponding C constant is `EV_KEY`.
    @inlinable public static var key: EventType { EventType(0x01) }
    /// The corresponding C constant is `EV_REL`.
    @inlinable public static var rel: EventType { EventType(0x02) }
    /// The corresponding C constant is `EV_ABS`.
    @inlinable public static var abs: EventType { EventType(0x03) }
    /// The corresponding C constant is `EV_MSC`.
    @inlinable public static var msc: EventType { EventType(0x04) }
    /// The corresponding C constant is `EV_SW`.
    @inlinable public static var sw: EventType { EventType(0x05) }
    /// The corresponding C constant is `EV_LED`.
    @inlinable public static var led: EventType { EventType(0x11) }
    /// The corresponding C constant is `EV_SND`.
    @inlinable public static var snd: EventType { EventType(0x12) }
    /// The corresponding C constant is `EV_REP`.
    @inlinable public static var rep: EventType { EventType(0x14) }
    /// The corresponding C constant is `EV_FF`.
    @inlinable public static var ff: EventType { EventType(0x15) }
    /// The corresponding C constant is `EV_MAX`.
    @inlinable public static var max: EventType { EventType(0x1f) }

    /// The highest code of this type (`ABS_MAX`, `KEY_MAX`, ...), or nil for an unknown type.
    public var maxCode: UInt16? {
        switch rawValue {
        case 0x00: return 0x0f
        case 0x01: return 0x2ff
        case 0x02: return 0x0f
        case 0x03: return 0x3f
        case 0x04: return 0x07
        case 0x05: return 0x11
        case 0x11: return 0x0f
        case 0x12: return 0x07
        case 0x14: return 0x01
        case 0x15: return 0x7f
        default: return nil
        }
    }
}

/// `SYN_*` codes.
public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

/// `ABS_*` axis codes used by strokes.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    public static let z: UInt16 = 0x02
    public static let wheel: UInt16 = 0x08
    public static let distance: UInt16 = 0x19
    public static let tiltX: UInt16 = 0x1a
    public static let tiltY: UInt16 = 0x1b
    /// `ABS_MISC`: Wacom tablets report the tool's id here.
    public static let misc: UInt16 = 0x28
    /// `ABS_RESERVED` (0x2e): set by "fake MT" devices, whose ABS_MT_* codes are not multitouch.
    public static let reserved: UInt16 = 0x2e
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtWidthMajor: UInt16 = 0x32
    public static let mtWidthMinor: UInt16 = 0x33
    public static let mtOrientation: UInt16 = 0x34
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtBlobID: UInt16 = 0x38
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    public static let mtToolX: UInt16 = 0x3c
    public static let mtToolY: UInt16 = 0x3d
    public static let max: UInt16 = 0x3f

    /// Whether `code` is a per-slot multitouch axis (`ABS_MT_TOUCH_MAJOR` ... `ABS_MT_TOOL_Y`).
    @inlinable
    public static func isPerSlot(_ code: UInt16) -> Bool { code >= mtTouchMajor && code <= mtToolY }
}

/// `KEY_*` / `BTN_*` codes used by strokes.
public enum KeyCode {
    public static let btnLeft: UInt16 = 0x110
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolRubber: UInt16 = 0x141
    public static let btnToolBrush: UInt16 = 0x142
    public static let btnToolPencil: UInt16 = 0x143
    public static let btnToolAirbrush: UInt16 = 0x144
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnToolQuinttap: UInt16 = 0x148
    public static let btnStylus3: UInt16 = 0x149
    public static let btnTouch: UInt16 = 0x14a
    public static let btnStylus: UInt16 = 0x14b
    public static let btnStylus2: UInt16 = 0x14c
    public static let btnToolDoubletap: UInt16 = 0x14d
    public static let btnToolTripletap: UInt16 = 0x14e
    public static let btnToolQuadtap: UInt16 = 0x14f
}

/// `MSC_*` codes used by strokes.
public enum MscCode {
    /// `MSC_SERIAL`: the serial number of the tool in proximity (Wacom).
    public static let serial: UInt16 = 0x00
}

/// `INPUT_PROP_*` device properties.
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let topButtonpad: UInt16 = 0x04
    public static let pointingStick: UInt16 = 0x05
    public static let accelerometer: UInt16 = 0x06
    public static let max: UInt16 = 0x1f
}

/// `MT_TOOL_*` values of `ABS_MT_TOOL_TYPE`.
public enum ToolType {
    public static let finger: Int32 = 0x00
    public static let pen: Int32 = 0x01
    public static let palm: Int32 = 0x02
    public static let dial: Int32 = 0x0a
    // strokes' own values for the tools of pen devices (BTN_TOOL_RUBBER ... BTN_TOOL_AIRBRUSH),
    // beyond the kernel's MT_TOOL_MAX (0x0f) so that they never collide with an MT_TOOL_* value.
    // BTN_TOOL_PEN is MT_TOOL_PEN.
    public static let eraser: Int32 = 0x141
    public static let brush: Int32 = 0x142
    public static let pencil: Int32 = 0x143
    public static let airbrush: Int32 = 0x144

    /// Whether `tool` is a pen's: `MT_TOOL_PEN` (a multitouch pen, or a pen device's pen) or
    /// one of the other pen devices' tools.
    @inlinable
    public static func isPen(_ tool: Int32) -> Bool { tool == pen || (eraser...airbrush).contains(tool) }

    /// The tool a `BTN_TOOL_*` key code of a pen device stands for; nil for other keys.
    @inlinable
    public static func penTool(key: UInt16) -> Int32? {
        switch key {
        case KeyCode.btnToolPen: return pen
        case KeyCode.btnToolRubber: return eraser
        case KeyCode.btnToolBrush: return brush
        case KeyCode.btnToolPencil: return pencil
        case KeyCode.btnToolAirbrush: return airbrush
        default: return nil
        }
    }
}
