/// The reader behind `YAML.parse`: a recursive descent over the bytes, block structure by
/// indentation (this file), flow collections (`+Flow`) and scalars (`+Scalars`).
///
/// Block functions share one convention: they return with `pos` at the first character of the
/// next line with content and `indent` set to its column (nil at the end of the document), so
/// the caller sees where the next node is without reading the line again.
struct YAMLParser {
    let bytes: [UInt8]
    var pos = 0
    /// The line `pos` is on (1-based), and the offset of its first byte.
    var line = 1
    var lineStart = 0
    /// The column (0-based) of the content line `pos` is at; nil at the end of the document.
    var indent: Int?
    /// Collections open around `pos`.
    var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: - The document

    mutating func document() throws(YAMLError) -> YAMLNode? {
        try checkCharacters()
        if bytes.starts(with: [0xef, 0xbb, 0xbf]) {  // a byte order mark
            pos = 3
            lineStart = 3
        }
        try skipToContent()
        while indent == 0 && peek() == Byte.percent {
            guard startsWith("%YAML"), Self.isSeparator(peek(5)) else {
                throw error("directives other than %YAML (such as %TAG) are not supported")
            }
            nextLine()
            try skipToContent()
        }
        var explicitStart = false
        if atMarker("---") {
            pos += 3
            explicitStart = true
            try finishLine(after: "'---' (a value on the line of '---' is not supported)")
            try skipToContent()
        }
        var root: YAMLNode?
        if let column = indent {
            let node = try blockNode(column: column)
            if let next = indent {
                throw error(
                    next < column
                        ? "unexpected content: this line is indented less than the document's first line"
                        : "unexpected content after the document's value (a value continued on a new line is not supported)")
            }
            root = node
        } else if explicitStart {
            root = .scalar(.init("", mark: mark()))  // where the next token is, as libyaml marks it
        }
        if atMarker("...") {
            pos += 3
            try finishLine(after: "'...'")
            try skipToContent()
            if indent != nil { throw error("unexpected content after the end of the document ('...')") }
        }
        if atMarker("---") { throw error("a second document ('---') is not supported: one document per file") }
        if atMarker("...") { throw error("unexpected '...' after the end of the document") }
        return root
    }

    /// YAML allows no control characters but tab and line breaks (YAML 1.1, 5.1). Checked before
    /// anything else, so that no message quotes one.
    func checkCharacters() throws(YAMLError) {
        var line = 1
        var lineStart = 0
        for i in bytes.indices where bytes[i] < 0x20 || bytes[i] == 0x7f {
            switch bytes[i] {
            case Byte.tab: continue
            case Byte.lf:
                line += 1
                lineStart = i + 1
            case Byte.cr:
                if i + 1 < bytes.count && bytes[i + 1] == Byte.lf { continue }  // counted at the LF
                line += 1
                lineStart = i + 1
            default:
                let hex = String(bytes[i], radix: 16, uppercase: true)
                throw YAMLError(
                    "control character U+\(hex.count < 2 ? "000" : "00")\(hex) is not allowed in YAML",
                    at: YAMLMark(line: line, column: i - lineStart + 1))
            }
        }
    }

    // MARK: - Block structure

    /// The block node that begins at `pos`, in column `column`: a sequence, a mapping (a scalar
    /// followed by `: `), or a single scalar or flow collection.
    mutating func blockNode(column: Int) throws(YAMLError) -> YAMLNode {
        if startsEntry() { return try blockSequence(column: column, indentless: false) }
        try refuseIndicators()
        let node = try inlineNode(flow: false)
        skipBlanks()
        if startsValue() {
            try checkKey(node)
            return try blockMapping(column: column, firstKey: node)
        }
        try finishLine(after: "the value")
        try skipToContent()
        return node
    }

    /// `key: value` lines in column `column`; `pos` is at the `:` after `firstKey`.
    mutating func blockMapping(column: Int, firstKey: YAMLNode) throws(YAMLError) -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        var pairs: [YAMLNode.Mapping.Element] = []
        var keys = KeySet()
        var key = firstKey
        while true {
            pos += 1  // the ':'
            let afterColon = mark()
            try keys.insert(key)
            skipBlanks()
            let value: YAMLNode
            if atLineEnd() {
                try finishLine(after: "':'")
                try skipToContent()
                if let next = indent, next > column {
                    value = try blockNode(column: next)
                } else if indent == column && startsEntry() {
                    // A sequence may sit at its key's indentation (libinput record writes them so).
                    value = try blockSequence(column: column, indentless: true)
                } else {
                    value = .scalar(.init("", mark: afterColon))
                }
            } else {
                if startsEntry() { throw error("a list cannot begin on its key's line: put '- ' on the next line, indented") }
                try refuseIndicators()
                value = try inlineNode(flow: false)
                skipBlanks()
                if startsValue() {
                    throw error("a mapping cannot begin on its key's line ('a: b: c'): put it on the next line, indented")
                }
                try finishLine(after: "the value")
                try skipToContent()
            }
            pairs.append((key, value))
            guard let next = indent, next >= column else { break }
            if next > column { throw unexpectedIndentation() }
            if startsEntry() { throw error("expected a key ('key: value') at this indentation, found a list item ('- ')") }
            try refuseIndicators()
            key = try inlineNode(flow: false)
            skipBlanks()
            guard startsValue() else {
                throw error("expected ':' after the key '\(Self.excerpt(key.scalar?.string ?? ""))'")
            }
            try checkKey(key)
        }
        return .mapping(.init(pairs, mark: firstKey.mark))
    }

    /// `- item` lines in column `column`; `pos` is at the first `-`. An indentless sequence (at its
    /// key's indentation) ends at a line that is not an item; any other must not.
    mutating func blockSequence(column: Int, indentless: Bool) throws(YAMLError) -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        let start = mark()
        var items: [YAMLNode] = []
        while true {
            pos += 1  // the '-'
            let afterDash = mark()
            let blanks = pos
            skipBlanks()
            if !atLineEnd() && bytes[blanks..<pos].contains(Byte.tab) {
                // Where a compact item begins depends on how wide the tab is.
                throw error("a tab after '-' (use spaces: the item's indentation depends on it)")
            }
            if atLineEnd() {
                try finishLine(after: "'-'")
                try skipToContent()
                if let next = indent, next > column {
                    items.append(try blockNode(column: next))
                } else {
                    items.append(.scalar(.init("", mark: afterDash)))
                }
            } else {
                items.append(try blockNode(column: pos - lineStart))
            }
            guard let next = indent, next >= column else { break }
            if next > column { throw unexpectedIndentation() }
            guard startsEntry() else {
                if indentless { break }
                throw error("expected a list item ('- ') at this indentation")
            }
        }
        return .sequence(.init(items, mark: start))
    }

    /// A key must be a scalar on one line (libyaml's simple keys).
    func checkKey(_ key: YAMLNode) throws(YAMLError) {
        guard case .scalar = key else {
            throw YAMLError("only scalars can be keys (a [list] or {mapping} as a key is not supported)", at: key.mark)
        }
        guard key.mark.line == line else { throw YAMLError("a key must be on one line", at: key.mark) }
    }

    /// Indicators that no node of this subset begins with, where a block node would.
    func refuseIndicators() throws(YAMLError) {
        let next = peek(1)
        if peek() == Byte.question && Self.isSeparator(next) { throw error("complex keys ('? ') are not supported") }
        if peek() == Byte.colon && Self.isSeparator(next) { throw error("a key is missing before ':'") }
    }

    func unexpectedIndentation() -> YAMLError {
        error("unexpected indentation (a value continued on a new line is not supported: keep it on one line, or quote it)")
    }

    mutating func enter() throws(YAMLError) {
        depth += 1
        if depth > YAML.maximumDepth { throw error("collections nested deeper than \(YAML.maximumDepth) levels") }
    }
}
