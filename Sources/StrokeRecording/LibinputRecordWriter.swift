import InputCore

/// Writes `libinput record` YAML (file format version 1, libinput's `tools/libinput-record.man`),
/// readable by `LibinputRecordReader`, `strokes replay` and libinput's own tools. One device per
/// file; each frame is one `evdev` list ending in its `SYN_REPORT`. Pure: text out.
public enum LibinputRecordWriter {
    /// Everything up to the `events:` key, which the frames follow. `comments` become `#` lines in
    /// the device section (e.g. the slot state when recording started).
    public static func header(
        _ d: DeviceDescription, node: String, kernel: String?, names: EvemuWriter.Names, comments: [String] = []
    ) -> String {
        var out = "# libinput record, written by strokes record\n"
        out += "version: 1\nndevices: 1\n"
        if let kernel { out += "system:\n  kernel: \(quote(kernel))\n" }
        out += "devices:\n"
        out += "  - node: \(quote(node))\n"
        out += "    evdev:\n"
        out += "      # Name: \(d.name)\n"
        out += "      # ID: bus 0x\(EvemuWriter.hex(d.id.bustype, 4)) vendor 0x\(EvemuWriter.hex(d.id.vendor, 4)) product 0x\(EvemuWriter.hex(d.id.product, 4)) version 0x\(EvemuWriter.hex(d.id.version, 4))\n"
        for c in comments { out += "      # \(c)\n" }
        out += "      name: \(quote(d.name))\n"
        out += "      id: [\(d.id.bustype), \(d.id.vendor), \(d.id.product), \(d.id.version)]\n"
        out += "      codes:\n"
        for type in d.codes.keys.sorted() where !(d.codes[type]!.isEmpty) {
            let codes = d.codes[type]!.sorted().map(String.init).joined(separator: ", ")
            out += "        \(type.rawValue): [\(codes)] # \(names.type(type) ?? "?")\n"
        }
        if !d.absInfo.isEmpty {
            out += "      absinfo:\n"
            for code in d.absInfo.keys.sorted() {
                let a = d.absInfo[code]!
                out += "        \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]"
                out += " # \(names.code(.abs, code) ?? "?")\(code == AbsCode.mtSlot ? ", current \(a.value)" : "")\n"
            }
        }
        out += "      properties: [\(d.properties.sorted().map(String.init).joined(separator: ", "))]\n"
        out += "    events:\n"
        return out
    }

    /// One frame: `events` up to and including its `SYN_REPORT`, times relative to `start`.
    /// `comment`, when given, is a `#` line before it.
    public static func frame(_ events: [InputEvent], start: Timestamp, names: EvemuWriter.Names, comment: String? = nil) -> String {
        var out = comment.map { "    # \($0)\n" } ?? ""
        out += "    - evdev:\n"
        for e in events {
            let t = max(0, e.time.microseconds - start.microseconds)
            out += "      - [\(EvemuWriter.pad(t / 1_000_000, 3)), \(EvemuWriter.pad(t % 1_000_000, 6)), "
            out += "\(EvemuWriter.pad(e.type.rawValue, 3)), \(EvemuWriter.pad(e.code, 3)), \(EvemuWriter.pad(e.value, 6))]"
            if let name = names.code(e.type, e.code) {
                out += " # \(names.type(e.type) ?? "?") / \(name) \(e.value)"
            }
            out += "\n"
        }
        return out
    }

    /// A YAML double-quoted scalar: `\` and `"` escaped, control characters as `\uXXXX`.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20 || u.value == 0x7f:
                let h = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
