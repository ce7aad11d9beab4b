/// Text from a recording or a device (its name, its node) as it may be printed on a terminal: C0
/// and C1 control characters, DEL and the bidirectional overrides (`isTerminalControl`) shown as
/// `\u{…}` (and a file name's bytes that are not UTF-8 as `\xNN`), so a crafted name cannot move
/// the cursor, retitle the window, hide what follows or display reversed (the daemon's JSON escapes
/// the control characters for the same reason).
public func terminalSafe(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: needsEscape) else { return s }
    var out = ""
    for u in s.unicodeScalars {
        if needsEscape(u) { out += escaped(u) } else { out.unicodeScalars.append(u) }
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
        case _ where needsEscape(u): out += escaped(u)
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}

private func needsEscape(_ u: Unicode.Scalar) -> Bool { isTerminalControl(u) || isForeignFileNameByte(u) }

/// U+10FF80-U+10FFFF: how a file name's bytes that are not UTF-8 travel in a `String` (`FileName`
/// in SystemSupport); not controls, but shown as the bytes they stand for (`\xe9`).
private func isForeignFileNameByte(_ u: Unicode.Scalar) -> Bool { u.value >= 0x10FF80 }

/// `\u{…}`, or `\x…` for a byte of a file name that is not UTF-8.
private func escaped(_ u: Unicode.Scalar) -> String {
    if isForeignFileNameByte(u) { return "\\x" + String(u.value & 0xff, radix: 16) }
    return "\\u{" + String(u.value, radix: 16) + "}"
}

/// What text from outside (a recording, a device, a daemon) must not put on a terminal or in a
/// log line raw: C0 and C1 control characters and DEL (cursor moves, titles, `CSI` as one byte), and
/// the bidirectional formatting characters, which make a name display reversed ("Trojan Source":
/// U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069).
public func isTerminalControl(_ u: Unicode.Scalar) -> Bool {
    switch u.value {
    case 0..<0x20, 0x7f...0x9f, 0x61c, 0x200e, 0x200f, 0x202a...0x202e, 0x2066...0x2069: true
    default: false
    }
}
