/// How strokes decodes a device, or why it cannot: the one acceptance rule, read by
/// `MultitouchDecoder.init` and by the daemon when it picks the devices it serves
/// (`strokes devices`), so the two cannot disagree. Pure: a function of the description.
public enum TouchDecoding: Hashable, Sendable {
    /// Protocol B: `count` slots.
    case slots(count: Int)
    /// One contact: `ABS_X`/`ABS_Y` and `BTN_TOUCH`, or a protocol A device through its
    /// single-touch emulation (docs/decoder.md).
    case singleTouch
    /// A pen device: one tool, proximity and touch.
    case tool
    /// Not decoded, and why.
    case refused(Refusal)

    public enum Refusal: Hashable, Sendable {
        /// Protocol A (`SYN_MT_REPORT`) without single-touch axes to fall back on.
        case protocolAWithoutSingleTouch
        /// No touch axes at all.
        case notATouchDevice
        /// More slots than `DeviceDescription.maxSlots` (libevdev's limit).
        case tooManySlots(count: Int)
    }

    /// Whether strokes serves the device.
    public var isDecodable: Bool {
        switch self {
        case .slots, .singleTouch, .tool: return true
        case .refused: return false
        }
    }
}

extension DeviceDescription {
    /// How strokes decodes this device (`TouchDecoding`).
    public var touchDecoding: TouchDecoding {
        switch touchProtocol {
        case .slots:
            let count = slotCount!
            return count <= DeviceDescription.maxSlots ? .slots(count: count) : .refused(.tooManySlots(count: count))
        case .singleTouch:
            return .singleTouch
        case .tool:
            return .tool
        case .anonymous:
            guard has(.abs, AbsCode.x), has(.abs, AbsCode.y), has(.key, KeyCode.btnTouch) else {
                return .refused(.protocolAWithoutSingleTouch)
            }
            return .singleTouch
        case .none:
            return .refused(.notATouchDevice)
        }
    }
}
