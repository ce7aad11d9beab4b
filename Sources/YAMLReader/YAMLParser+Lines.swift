/// Bytes the reader looks for.
enum Byte {
    static let tab = UInt8(ascii: "\t")
    static let lf = UInt8(ascii: "\n")
    static let cr = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let hash = UInt8(ascii: "#")
    static let dash = UInt8(ascii: "-")
    static let colon = UInt8(ascii: ":")
    static let question = UInt8(ascii: "?")
    static let comma = UInt8(ascii: ",")
    static let percent = UInt8(ascii: "%")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let singleQuote = UInt8(ascii: "'")
    static let doubleQuote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
}

/// Positions, lines, blanks and comments.
extension YAMLParser {
    /// The byte `offset` past `pos`; 0 past the end (0 is never in the text: `checkCharacters`).
    @inline(__always)
    func peek(_ offset: Int = 0) -> UInt8 {
        let i = pos + offset
        return i < bytes.count ? bytes[i] : 0
    }

    var atEnd: Bool { pos >= bytes.count }

    /// The mark of `pos` (which must be on the current line).
    func mark() -> YAMLMark { YAMLMark(line: line, column: pos - lineStart + 1) }

    func error(_ message: String) -> YAMLError { YAMLError(message, at: mark()) }

    static func isBreak(_ b: UInt8) -> Bool { b == Byte.lf || b == Byte.cr }
    static func isBlank(_ b: UInt8) -> Bool { b == Byte.space || b == Byte.tab }
    /// A blank, a line break or the end of the text: what must follow an indicator (`- `, `: `).
    static func isSeparator(_ b: UInt8) -> Bool { b == Byte.space || b == Byte.tab || b == Byte.lf || b == Byte.cr || b == 0 }
    static func isFlowIndicator(_ b: UInt8) -> Bool {
        b == Byte.comma || b == Byte.openBracket || b == Byte.closeBracket || b == Byte.openBrace || b == Byte.closeBrace
    }

    func startsWith(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard pos + count <= bytes.count else { return false }
        return text.withUTF8Buffer { $0.elementsEqual(bytes[pos..<pos + count]) }
    }

    /// A block sequence entry: `-` and a separator.
    func startsEntry() -> Bool { peek() == Byte.dash && Self.isSeparator(peek(1)) }

    /// A block mapping value: `:` and a separator.
    func startsValue() -> Bool { peek() == Byte.colon && Self.isSeparator(peek(1)) }

    /// A document marker (`---`, `...`) at the start of a line.
    func atMarker(_ marker: StaticString) -> Bool { pos == lineStart && startsWith(marker) && Self.isSeparator(peek(3)) }

    /// Nothing but a comment (or nothing) before the line break.
    func atLineEnd() -> Bool {
        let b = peek()
        return b == 0 || Self.isBreak(b) || (b == Byte.hash && afterBlank())
    }

    /// Whether the byte before `pos` is a blank or a line start: what makes `#` a comment.
    func afterBlank() -> Bool { pos == lineStart || Self.isBlank(bytes[pos - 1]) }

    mutating func skipBlanks() {
        while Self.isBlank(peek()) { pos += 1 }
    }

    /// At a line break: past it (CR LF is one).
    mutating func consumeBreak() {
        pos += peek() == Byte.cr && peek(1) == Byte.lf ? 2 : 1
        line += 1
        lineStart = pos
    }

    /// To the start of the next line (or the end of the text).
    mutating func nextLine() {
        while !atEnd && !Self.isBreak(bytes[pos]) { pos += 1 }
        if !atEnd { consumeBreak() }
    }

    /// After a node on a line: blanks, an optional comment, the line break.
    mutating func finishLine(after what: String) throws(YAMLError) {
        skipBlanks()
        let b = peek()
        if b == Byte.hash && afterBlank() {
            nextLine()
        } else if b == 0 || Self.isBreak(b) {
            nextLine()
        } else if b == Byte.hash {
            throw error("a comment needs a blank before '#'")
        } else {
            throw error("expected the end of the line after \(what), found \(Self.describe(b))")
        }
    }

    /// From the start of a line: past blank and comment lines to the first character of the next
    /// line with content; `indent` is its column, nil at the end of the text or at a document
    /// marker.
    mutating func skipToContent() throws(YAMLError) {
        while !atEnd {
            while peek() == Byte.space { pos += 1 }
            let b = peek()
            if b == Byte.tab {
                skipBlanks()
                let c = peek()
                guard c == 0 || Self.isBreak(c) || c == Byte.hash else {
                    throw error("a tab cannot indent a line (YAML indents with spaces only)")
                }
                nextLine()
                continue
            }
            if b == 0 { break }
            if Self.isBreak(b) || b == Byte.hash {
                nextLine()
                continue
            }
            indent = atMarker("---") || atMarker("...") ? nil : pos - lineStart
            return
        }
        indent = nil
    }

    /// A byte as a message shows it.
    static func describe(_ b: UInt8) -> String {
        switch b {
        case 0: "the end of the text"
        case Byte.tab: "a tab"
        case Byte.lf, Byte.cr: "the end of the line"
        case 0x21...0x7e: "'\(Character(Unicode.Scalar(b)))'"
        default: "a non-ASCII character"
        }
    }

    /// Up to 40 characters of `text` for a message, control characters escaped.
    static func excerpt(_ text: String) -> String {
        var out = ""
        for (i, u) in text.unicodeScalars.enumerated() {
            if i == 40 { return out + "…" }
            if u.value < 0x20 || (0x7f...0x9f).contains(u.value) {
                out += "\\u{\(String(u.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

/// The keys of one mapping, to refuse a repeated one (as Yams did): a scan while few, a
/// dictionary beyond.
struct KeySet {
    private var few: [(key: String, line: Int)] = []
    private var many: [String: Int] = [:]

    mutating func insert(_ node: YAMLNode) throws(YAMLError) {
        guard let key = node.scalar else { return }
        let first: Int?
        if few.count < 8 {
            first = few.first { $0.key == key.string }?.line
            if first == nil { few.append((key.string, key.mark.line)) }
        } else {
            if many.isEmpty { for k in few { many[k.key] = k.line } }
            first = many[key.string]
            if first == nil { many[key.string] = key.mark.line }
        }
        if let first {
            throw YAMLError("duplicate key '\(YAMLParser.excerpt(key.string))' (first on line \(first))", at: key.mark)
        }
    }
}
