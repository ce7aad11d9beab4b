import InputCore

/// Writes evemu recordings (format 1.3, as `evemu-record` does), readable by `EvemuReader`,
/// `strokes replay` and evemu's own `evemu-play` / `evemu-device`. Pure: text out.
public enum EvemuWriter {
    /// Names for the comments evemu writes beside types and codes (`EV_ABS`, `ABS_MT_SLOT`);
    /// this module has no name tables of its own (libevdev's are in `Evdev.EventNames`).
    public struct Names: Sendable {
        public var type: @Sendable (EventType) -> String?
        public var code: @Sendable (EventType, UInt16) -> String?

        public init(type: @escaping @Sendable (EventType) -> String?, code: @escaping @Sendable (EventType, UInt16) -> String?) {
            self.type = type
            self.code = code
        }
    }

    /// The header: version, a human-readable dump whose `Value` lines carry the absinfo values
    /// (the initial `ABS_MT_SLOT` among them), then the `N:`/`I:`/`P:`/`B:`/`A:` description.
    /// `comments` are added as `#` lines (e.g. the slot state at the start of a live recording).
    public static func header(_ d: DeviceDescription, names: Names, comments: [String] = []) -> String {
        var out = "# EVEMU 1.3\n"
        out += "# Input device name: \"\(d.name)\"\n"
        out += "# Input device ID: bus 0x\(hex(d.id.bustype, 2)) vendor 0x\(hex(d.id.vendor, 4)) product 0x\(hex(d.id.product, 4)) version 0x\(hex(d.id.version, 4))\n"
        out += "# Supported events:\n"
        for type in d.codes.keys.sorted() {
            out += "#   Event type \(type.rawValue) (\(names.type(type) ?? "?"))\n"
            for code in d.codes[type]!.sorted() {
                out += "#     Event code \(code) (\(names.code(type, code) ?? "?"))\n"
                if type == .abs, let a = d.absInfo[code] {
                    out += "#       Value \(pad(a.value, 8))\n#       Min \(pad(a.minimum, 10))\n#       Max \(pad(a.maximum, 10))\n"
                    out += "#       Fuzz \(pad(a.fuzz, 9))\n#       Flat \(pad(a.flat, 9))\n#       Resolution \(pad(a.resolution, 3))\n"
                }
            }
        }
        out += "# Properties:\n"
        for p in d.properties.sorted() { out += "#   Property type \(p)\n" }
        for c in comments { out += "# \(c)\n" }
        out += "N: \(d.name)\n"
        out += "I: \(hex(d.id.bustype, 4)) \(hex(d.id.vendor, 4)) \(hex(d.id.product, 4)) \(hex(d.id.version, 4))\n"
        out += maskLines("P:", nil, bits: d.properties, bytes: 8)
        var types: Set<UInt16> = [EventType.syn.rawValue]
        for t in d.codes.keys { types.insert(t.rawValue) }
        out += maskLines("B:", 0, bits: types, bytes: 8)
        for type in d.codes.keys.sorted() where type != .syn {
            // KEY_MAX is 0x2ff: 96 bytes; ABS_MAX 0x3f: 8 bytes; the other types fit in 8.
            let size: Int
            switch type {
            case .key: size = 96
            default: size = 8
            }
            out += maskLines("B:", type.rawValue, bits: d.codes[type]!, bytes: size)
        }
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out += "A: \(hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        return out
    }

    /// One `E:` line, its time relative to `start`.
    public static func eventLine(_ e: InputEvent, start: Timestamp, names: Names) -> String {
        let t = max(0, e.time.microseconds - start.microseconds)
        let usec = String(t % 1_000_000)
        let time = "\(t / 1_000_000).\(String(repeating: "0", count: 6 - usec.count))\(usec)"
        let value = e.value < 0 ? "-" + pad4(-Int64(e.value)) : pad4(Int64(e.value))
        var line = "E: \(time) \(hex(e.type.rawValue, 4)) \(hex(e.code, 4)) \(value)"
        if let name = names.code(e.type, e.code) { line += "\t# \(name) \(e.value)" }
        return line + "\n"
    }

    private static func maskLines(_ tag: String, _ type: UInt16?, bits: Set<UInt16>, bytes: Int) -> String {
        var mask = [UInt8](repeating: 0, count: bytes)
        for b in bits where Int(b) / 8 < bytes { mask[Int(b) / 8] |= 1 << (b % 8) }
        var out = ""
        var i = 0
        while i < bytes {
            let chunk = mask[i..<min(i + 8, bytes)]
            out += tag + (type.map { " " + hex($0, 2) } ?? "") + chunk.map { " " + hex(UInt16($0), 2) }.joined() + "\n"
            i += 8
        }
        return out
    }

    /// Zero-padded lower-case hex, as evemu and libinput record write ids and codes.
    static func hex(_ v: UInt16, _ width: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// Right-aligned in `width` columns.
    static func pad<T: BinaryInteger>(_ v: T, _ width: Int) -> String {
        let s = String(v)
        return String(repeating: " ", count: max(0, width - s.count)) + s
    }

    private static func pad4(_ v: Int64) -> String {
        let s = String(v)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
