import YAMLReader

/// The `yaml` target's oracle: any bytes are a document or a `YAMLError` whose line is in the
/// input and whose message is short and free of control characters. A document read is written
/// back (every scalar double-quoted, collections in flow style) and read again: the same tree,
/// so that escapes, folding and the structure read are what the text said.
extension FuzzOracles {
    static func checkYAML(_ bytes: [UInt8]) -> String? {
        var lines = 1
        for (i, byte) in bytes.enumerated()
        where byte == UInt8(ascii: "\n") || (byte == UInt8(ascii: "\r") && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n"))) {
            lines += 1
        }
        let node: YAMLNode?
        do {
            node = try YAML.parse(bytes)
        } catch {
            if error.line < 1 || error.line > lines { return "error line \(error.line) outside the input's \(lines) lines: \(error)" }
            if error.message.count > 400 { return "error message of \(error.message.count) characters" }
            if error.message.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
                return "control character in the error message: \(error)"
            }
            return nil
        }
        guard let node else { return nil }
        if let bad = firstMark(node, where: { $0.line < 1 || $0.line > lines }) { return "node marked at \(bad), outside the input's \(lines) lines" }
        let text = canonical(node)
        let again: YAMLNode?
        do {
            again = try YAML.parse(Array(text.utf8))
        } catch {
            return "the canonical form does not read back: \(error)\n\(text)"
        }
        guard let again, canonical(again) == text else { return "the canonical form reads back differently:\n\(text)" }
        return nil
    }

    static func firstMark(_ node: YAMLNode, where bad: (YAMLMark) -> Bool) -> YAMLMark? {
        if bad(node.mark) { return node.mark }
        switch node {
        case .scalar: return nil
        case .sequence(let s):
            for item in s { if let m = firstMark(item, where: bad) { return m } }
            return nil
        case .mapping(let m):
            for pair in m { if let found = firstMark(pair.key, where: bad) ?? firstMark(pair.value, where: bad) { return found } }
            return nil
        }
    }

    /// The tree in flow style, every scalar double-quoted with `\uXXXX` for what is not printable ASCII.
    static func canonical(_ node: YAMLNode) -> String {
        switch node {
        case .scalar(let s):
            var out = "\""
            for u in s.string.unicodeScalars {
                switch u {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case " "..."~": out.unicodeScalars.append(u)
                default:
                    let hex = String(u.value, radix: 16)
                    out += "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
                }
            }
            return out + "\""
        case .sequence(let s): return "[" + s.map(canonical).joined(separator: ", ") + "]"
        case .mapping(let m): return "{" + m.map { canonical($0.key) + ": " + canonical($0.value) }.joined(separator: ", ") + "}"
        }
    }
}
