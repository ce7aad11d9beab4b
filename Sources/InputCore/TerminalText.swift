/// Text from a recording or a device (its name, its node) as it may be printed on a terminal: C0
/// and C1 control characters and DEL shown as `\u{…}`, so a crafted name cannot move the cursor,
/// retitle the window or hide what follows (the daemon's JSON escapes them for the same reason).
public func terminalSafe(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: isControl) else { return s }
    var out = ""
    for u in s.unicodeScalars {
        if isControl(u) { out += "\\u{" + String(u.value, radix: 16) + "}" } else { out.unicodeScalars.append(u) }
    }
    return out
}

/// `s` between double quotes as it may be printed on a terminal: `terminalSafe`, and a `"` or `\`
/// inside it escaped with a backslash, so that where the name ends is never in doubt (a name
/// `a" (touchscreen` printed raw between quotes read as another name and kind).
public func terminalQuoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"", "\\": out += "\\" + String(u)
        case _ where isControl(u): out += "\\u{" + String(u.value, radix: 16) + "}"
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}

private func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7f...0x9f).contains(u.value) }
