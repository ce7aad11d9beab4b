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

private func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7f...0x9f).contains(u.value) }
