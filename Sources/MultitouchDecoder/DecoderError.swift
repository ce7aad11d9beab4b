import InputCore

/// A device the decoder cannot decode.
public enum DecoderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Protocol A (`SYN_MT_REPORT`) without single-touch axes to fall back on.
    case protocolAUnsupported(deviceName: String)
    /// No touch axes at all.
    case notATouchDevice(deviceName: String)
    /// More slots than `DeviceDescription.maxSlots` (libevdev's limit): the slot table is
    /// allocated from the declared count.
    case tooManySlots(deviceName: String, count: Int)

    /// Device names are escaped (`terminalSafe`): they come from the device, and the message goes
    /// to a terminal or the journal.
    public var description: String {
        switch self {
        case .protocolAUnsupported(let name):
            return
                "'\(terminalSafe(name))' uses multitouch protocol A (SYN_MT_REPORT, no ABS_MT_SLOT) and has no single-touch axes: strokes decodes protocol B only; run the device through mtdev, or see docs/decoder.md"
        case .notATouchDevice(let name):
            return "'\(terminalSafe(name))' is not a touch device: it has neither ABS_MT_SLOT nor ABS_X/ABS_Y with BTN_TOUCH"
        case .tooManySlots(let name, let count):
            return "'\(terminalSafe(name))' declares \(count) slots; strokes decodes at most \(DeviceDescription.maxSlots) (libevdev's limit)"
        }
    }
}
