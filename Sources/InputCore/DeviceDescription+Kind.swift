/// How a touch device relates to the screen, after libinput's classification
/// (`evdev_configure()` in libinput `src/evdev.c`).
public enum DeviceKind: String, Hashable, Sendable {
    /// `INPUT_PROP_DIRECT`, or an old touchscreen that declares no properties at all.
    case touchscreen
    /// A touchpad: finger tool bits plus `INPUT_PROP_BUTTONPAD` or physical buttons.
    case touchpad
    /// A touch surface not mapped to a screen that is neither: a tablet's finger interface.
    case indirect
    /// A pen display: a pen device mapped to a screen (`INPUT_PROP_DIRECT`), libinput's
    /// "screen tablet" (Cintiq, a pen-enabled touchscreen's pen node).
    case penDisplay
    /// A pen tablet not mapped to a screen (Intuos): libinput's "external tablet".
    case tablet
    /// Not a touch device.
    case other
}

/// How the contacts of a device are reported (kernel `multi-touch-protocol.rst`).
public enum TouchProtocol: String, Hashable, Sendable {
    /// Protocol B: slots and tracking IDs.
    case slots
    /// Protocol A: anonymous contacts separated by `SYN_MT_REPORT`. No kernel driver uses it any
    /// more, but vendor drivers and uinput tools still do.
    case anonymous
    /// One contact: `ABS_X`/`ABS_Y` and `BTN_TOUCH`.
    case singleTouch
    /// A pen device: one tool at a time, `ABS_X`/`ABS_Y` and `BTN_TOOL_PEN`, `_RUBBER`, `_BRUSH`,
    /// `_PENCIL` or `_AIRBRUSH` for proximity (kernel `event-codes.rst`, "BTN_TOOL_<name>").
    case tool
    /// No touch axes.
    case none
}

extension DeviceDescription {
    public var touchProtocol: TouchProtocol {
        let hasMTPosition = has(.abs, AbsCode.mtPositionX) && has(.abs, AbsCode.mtPositionY)
        // Slots without positions could never place a contact: such a device is what its other
        // axes make it (libinput's fallback: ABS_X / ABS_Y and BTN_TOUCH), not a multitouch
        // device whose every touch is lost, silently (an adversary's finding).
        if slotCount != nil && hasMTPosition { return .slots }
        let hasSTPosition = has(.abs, AbsCode.x) && has(.abs, AbsCode.y)
        if hasMTPosition && !has(.abs, AbsCode.mtSlot) && !has(.abs, AbsCode.reserved) { return .anonymous }
        if hasSTPosition && (KeyCode.btnToolPen...KeyCode.btnToolAirbrush).contains(where: { has(.key, $0) }) { return .tool }
        if hasSTPosition && has(.key, KeyCode.btnTouch) { return .singleTouch }
        return .none
    }

    /// `INPUT_PROP_SEMI_MT`: the slots carry the corners of a bounding box, not the fingers.
    public var isSemiMT: Bool { hasProperty(InputProperty.semiMT) }

    /// The pen tools' `BTN_TOOL_*` codes the device declares, in code order.
    public var penToolKeys: [UInt16] { (KeyCode.btnToolPen...KeyCode.btnToolAirbrush).filter { has(.key, $0) } }

    /// The pen tools (`ToolType` values) the device declares a `BTN_TOOL_*` bit for, in code order.
    public var penTools: [Int32] { penToolKeys.compactMap(ToolType.penTool(key:)) }

    public var kind: DeviceKind {
        guard touchProtocol != .none else { return .other }
        if touchProtocol == .tool { return hasProperty(InputProperty.direct) ? .penDisplay : .tablet }
        if hasProperty(InputProperty.direct) { return .touchscreen }
        let fingerTool = has(.key, KeyCode.btnToolFinger)
        if fingerTool && !has(.key, KeyCode.btnToolPen) {
            if hasProperty(InputProperty.buttonpad) || hasProperty(InputProperty.topButtonpad)
                || has(.key, KeyCode.btnLeft)
            {
                return .touchpad
            }
            return .indirect
        }
        if hasProperty(InputProperty.pointer) { return .indirect }
        // Pre-2.6.38 drivers set no properties; libinput's fallback treats BTN_TOUCH + ABS devices
        // without finger-tool bits as touchscreens, and so do we.
        return .touchscreen
    }
}
