/// The YAML 1.1 readings of plain scalars that the configuration relies on, as Yams (libyaml with
/// its default resolver) gave them before this reader replaced it, so a configuration file means
/// what it meant: a quoted scalar is always a string, never a boolean or a number.
extension YAMLNode.Scalar {
    /// `true`, `yes`, `on` and `false`, `no`, `off`, each in lower case, capitalised or upper case.
    public var bool: Bool? {
        guard style == .plain else { return nil }
        switch string {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: return nil
        }
    }

    /// `~`, `null` (in the three casings) or nothing at all.
    public var isNull: Bool {
        style == .plain && (string.isEmpty || string == "~" || string == "null" || string == "Null" || string == "NULL")
    }

    /// An integer: an optional sign, then decimal, `0x` hexadecimal, `0b` binary, `0o` or a
    /// leading `0` octal, or base 60 (`1:30` is 90); `_` between digits is ignored. Nil when
    /// the value does not fit in `Int`.
    public var int: Int? {
        guard style == .plain else { return nil }
        let text = string.filter { $0 != "_" }
        if text == "0" { return 0 }
        let negative = text.hasPrefix("-")
        let unsigned = text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0)
        let sign = negative ? "-" : ""
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where unsigned.hasPrefix(prefix) {
            return Int(sign + unsigned.dropFirst(prefix.count), radix: radix)
        }
        if unsigned.contains(":") { return Self.sexagesimal(text) as Int? }
        return Int(text)
    }

    /// A floating-point number (or an integer read as one): `1.5`, `1e3`, `.inf`, `-.inf`,
    /// `.nan`, base 60 (`1:30.5`); `_` is ignored.
    public var double: Double? {
        guard style == .plain else { return nil }
        switch string.lowercased() {
        case ".inf", "+.inf": return .infinity
        case "-.inf": return -.infinity
        case ".nan": return .nan
        default:
            let text = string.filter { $0 != "_" }
            if text.contains(":") { return Self.sexagesimal(text) as Double? }
            return Double(text)
        }
    }

    /// `[-+]a:b:c` as `±(a·60² + b·60 + c)`; nil when a part is not an integer or it overflows.
    private static func sexagesimal(_ text: String) -> Int? {
        let negative = text.hasPrefix("-")
        var value = 0
        for part in text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0).split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Int(part, radix: 10) else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 60)
            let (sum, o2) = shifted.addingReportingOverflow(digit)
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// `[-+]a:b:c.d` as `±(a·60² + b·60 + c.d)`; nil when a part is not a number.
    private static func sexagesimal(_ text: String) -> Double? {
        let negative = text.hasPrefix("-")
        var value = 0.0
        for part in text.dropFirst(negative || text.hasPrefix("+") ? 1 : 0).split(separator: ":", omittingEmptySubsequences: false) {
            guard let digit = Double(part) else { return nil }
            value = value * 60 + digit
        }
        return negative ? -value : value
    }
}
