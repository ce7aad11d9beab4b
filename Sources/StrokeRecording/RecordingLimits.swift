import InputCore

/// What a recording may declare. A recording is untrusted input: every count or size its header
/// gives is checked here before anything is allocated from it, and a file that goes beyond a limit
/// is refused with `file:line` (docs/decoder.md, "Recordings").
public enum RecordingLimits {
    /// Most devices in one libinput recording.
    public static let maxDevices = 64
    /// Longest line of an evemu or evtest file. Real lines are under 200 bytes; the longest header
    /// lines are `B:` bitmasks of 96 bytes.
    public static let maxLineBytes = 1 << 16
    /// Longest header (everything before the first event) of an evemu or evtest file.
    public static let maxHeaderBytes = 4 << 20
    /// Most events in one frame (between two `SYN_REPORT`s). A frame of every slot's every axis on
    /// a 256-slot device is under 4,000 events; a replay holds one frame at a time.
    public static let maxFrameEvents = 1 << 16
    /// What a recording past `maxFrameEvents` is told, at the line of the frame's first event.
    public static let frameTooLong =
        "more than \(maxFrameEvents) events without a SYN_REPORT from here: not a frame a device sends"
    /// Latest event time, in seconds: times are microseconds in an `Int64`.
    public static let maxSeconds: Int64 = Int64.max / 1_000_000 - 1
    /// Longest excerpt of a malformed line quoted in an error message, in characters.
    public static let excerptCharacters = 60
    /// Longest device name, in bytes. The kernel's come from drivers (a HID device's name is at
    /// most 128 bytes, a uinput device's 80): a longer one is crafted, and every client that lists
    /// the devices would be sent it (a 5 MiB name made each `devices` reply too large to deliver).
    public static let maxNameBytes = 1024
    /// Longest device node path (a libinput recording's `node`): `PATH_MAX`.
    public static let maxNodeBytes = 4096

    /// Why `name` cannot be a device's name, or nil when it can.
    public static func problem(name: some StringProtocol) -> String? {
        let n = name.utf8.count
        return n > maxNameBytes ? "the device name is \(n) bytes long; at most \(maxNameBytes) are read (the kernel's are under 128)" : nil
    }

    /// Highest event code of any type (`KEY_MAX`, the largest of the `*_MAX` codes).
    public static let maxCode: UInt16 = 0x2ff

    /// The first axis `codes` declares that `absInfo` gives no range for, or nil. The kernel has
    /// an absinfo for every axis a device declares (`EVIOCGABS`), and every recorder writes it: a
    /// recording without one was cut or edited, and an axis without a range cannot be read (an
    /// unreadable position axis lost every contact of the device, silently).
    public static func axisWithoutAbsInfo(codes: [EventType: Set<UInt16>], absInfo: [UInt16: AbsInfo]) -> UInt16? {
        (codes[.abs] ?? []).sorted().first { absInfo[$0] == nil }
    }

    /// The message for `axisWithoutAbsInfo`'s `code`; `line` names what the format would have had.
    public static func missingAbsInfo(_ code: UInt16, line: String) -> String {
        "the header declares axis 0x\(String(code, radix: 16)) but gives no range for it (\(line)); the kernel has one for every axis"
    }

    /// Why `info` cannot be the absinfo of axis `code`, or nil when it can.
    ///
    /// The kernel's own rule for devices created through uinput (`uinput_validate_absinfo()`) is
    /// that `min <= max`; a zero-width axis (`min == max`) is allowed and handled downstream.
    public static func problem(axis code: UInt16, _ info: AbsInfo) -> String? {
        if info.minimum > info.maximum {
            return "axis 0x\(String(code, radix: 16)) has min \(info.minimum) > max \(info.maximum) (the kernel refuses such an axis)"
        }
        if code == AbsCode.mtSlot {
            if info.minimum != 0 {
                return "ABS_MT_SLOT min is \(info.minimum); the kernel's multitouch protocol requires 0"
            }
            if Int64(info.maximum) >= Int64(DeviceDescription.maxSlots) {
                return "ABS_MT_SLOT max \(info.maximum) declares \(Int64(info.maximum) + 1) slots; strokes reads at most \(DeviceDescription.maxSlots) (libevdev's limit)"
            }
        }
        return nil
    }
}

extension RecordingError {
    /// A short, escaped excerpt of `text` for an error message: quoted, control characters and
    /// quotes escaped, cut at `RecordingLimits.excerptCharacters` with the full length said.
    public static func excerpt<S: Collection>(_ text: S) -> String where S.Element == UInt8 {
        excerpt(String(decoding: text.prefix(RecordingLimits.excerptCharacters * 4), as: UTF8.self), totalBytes: text.count)
    }

    /// `text` (a message from a library, such as the YAML parser's) with control characters
    /// escaped and cut to 200 characters.
    public static func sanitized(_ text: some StringProtocol) -> String {
        var out = ""
        for ch in text.unicodeScalars {
            if out.count >= 200 { return out + "…" }
            if isTerminalControl(ch) {
                out += "\\u{\(String(ch.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(ch)
            }
        }
        return out
    }

    /// A short, escaped excerpt of `text`; see `excerpt(_:)` for bytes.
    public static func excerpt(_ text: some StringProtocol, totalBytes: Int? = nil, length: String? = nil) -> String {
        // The budget counts what is written, escapes included: a line of invalid UTF-8 would
        // otherwise become eight characters per byte.
        var out = "'"
        var written = 0
        for ch in text.unicodeScalars {
            let piece: String
            switch ch {
            case "'": piece = "\\'"
            case "\\": piece = "\\\\"
            case "\t": piece = "\\t"
            case "\r": piece = "\\r"
            case "\n": piece = "\\n"
            default:
                if isTerminalControl(ch) || ch == "\u{FFFD}" {
                    piece = "\\u{\(String(ch.value, radix: 16))}"
                } else {
                    piece = String(ch)
                }
            }
            written += piece.count
            if written > RecordingLimits.excerptCharacters {
                return out + "'… (\(length ?? "\(totalBytes ?? text.utf8.count) bytes"))"
            }
            out += piece
        }
        return out + "'"
    }
}
