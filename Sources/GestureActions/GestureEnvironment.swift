import StrokeProtocol

/// The gesture's values as environment variables for the command it runs
/// (docs/gestures.md, "Acting on gestures", lists them). Values missing from the gesture are left
/// out; numbers are plain decimals (no exponent), as a shell's arithmetic or `bc` reads them.
public enum GestureEnvironment {
    /// Every variable this client sets starts with it; inherited ones are removed, so that a
    /// value left out is really absent.
    public static let prefix = "STROKES_GESTURE_"

    /// The variables for `gesture`, in a fixed order (names without duplicates).
    public static func variables(for gesture: GestureMessage, deviceName: String?, rule: String) -> [(String, String)] {
        var v: [(String, String)] = []
        func add(_ name: String, _ value: String?) {
            // An environment variable ends at a NUL: one in a value (a device's name) would cut
            // it short in the real run but not in --dry-run. U+FFFD stands for it in both.
            if let value { v.append((prefix + name, withoutNUL(value))) }
        }
        func add(_ name: String, _ value: Double?) {
            add(name, value.flatMap(plainDecimal))
        }
        add("RULE", rule)
        add("KIND", gesture.kind.rawValue)
        add("PHASE", gesture.phase.rawValue)
        add("ID", String(gesture.gesture))
        add("FINGERS", String(gesture.fingers))
        add("STROKES", gesture.strokes.map(String.init).joined(separator: " "))
        add("DEVICE", String(gesture.device))
        add("DEVICE_NAME", deviceName)
        add("TIME", String(gesture.time))
        add("DURATION", String(gesture.duration))
        add("X", gesture.x)
        add("Y", gesture.y)
        add("NX", gesture.nx)
        add("NY", gesture.ny)
        add("MM_X", gesture.mmX)
        add("MM_Y", gesture.mmY)
        add("DNX", gesture.dnx)
        add("DNY", gesture.dny)
        add("DMM_X", gesture.dmmX)
        add("DMM_Y", gesture.dmmY)
        add("DIRECTION", gesture.direction?.rawValue)
        add("VELOCITY", gesture.velocity)
        add("EDGE", gesture.edge?.rawValue)
        add("SCALE", gesture.scale)
        add("ANGLE", gesture.angle)
        return v
    }

    /// `s` with each NUL replaced by U+FFFD.
    static func withoutNUL(_ s: String) -> String {
        guard s.utf8.contains(0) else { return s }
        var out = String.UnicodeScalarView()
        for u in s.unicodeScalars { out.append(u == "\0" ? "\u{FFFD}" : u) }
        return String(out)
    }

    /// `v` with at most 6 decimals and never an exponent (nil when not finite): beyond what
    /// `JSONWriter.fixed` writes plainly (about 9e9), the shortest round-trip form with its
    /// exponent expanded into digits (`1e+16`: `10000000000000000`).
    static func plainDecimal(_ v: Double) -> String? {
        guard v.isFinite else { return nil }
        let fixed = JSONWriter.fixed(v, decimals: 6)
        guard let e = fixed.firstIndex(where: { $0 == "e" || $0 == "E" }), let exponent = Int(fixed[fixed.index(after: e)...]) else {
            return fixed
        }
        var mantissa = fixed[..<e]
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = String(parts[0])
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        // Values this large have no fractional part left in a Double: the exponent is at least the
        // fraction's length (the shortest form has one digit before the point).
        guard exponent >= fraction.count else { return nil }
        let digits = whole + fraction + String(repeating: "0", count: exponent - fraction.count)
        return (negative ? "-" : "") + digits
    }
}
