/// Flow collections (`[a, b]`, `{a: 1}`) and the nodes that may stand where a value begins.
extension YAMLParser {
    /// A node that begins at `pos` and is not a block collection: a flow collection or a scalar.
    /// `flow`: inside a flow collection, where `,[]{}` end a plain scalar.
    mutating func inlineNode(flow: Bool) throws(YAMLError) -> YAMLNode {
        let b = peek()
        switch b {
        case Byte.openBracket: return try flowSequence()
        case Byte.openBrace: return try flowMapping()
        case Byte.doubleQuote: return .scalar(try doubleQuoted())
        case Byte.singleQuote: return .scalar(try singleQuoted())
        case UInt8(ascii: "&"): throw error("anchors ('&') are not supported")
        case UInt8(ascii: "*"): throw error("aliases ('*') are not supported")
        case UInt8(ascii: "!"): throw error("tags ('!') are not supported")
        case UInt8(ascii: "|"), UInt8(ascii: ">"): throw error("block scalars ('|', '>') are not supported: quote the value")
        case UInt8(ascii: "@"), UInt8(ascii: "`"), Byte.percent:
            throw error("a plain value cannot begin with \(Self.describe(b)): quote it")
        case Byte.closeBracket, Byte.closeBrace, Byte.comma: throw error("unexpected \(Self.describe(b))")
        case Byte.hash: throw error("a comment needs a blank before '#'")
        case 0: throw error("expected a value, found the end of the text")
        case Byte.dash, Byte.question, Byte.colon:
            // In a flow collection `?` and `:` are indicators whatever follows (libyaml).
            if Self.isSeparator(peek(1)) || (flow && b != Byte.dash) {
                throw error("unexpected \(Self.describe(b)) (quote a value that begins with it)")
            }
            return .scalar(try plain(flow: flow))
        default: return .scalar(try plain(flow: flow))
        }
    }

    /// `[a, b, …]`, over as many lines as it takes; an item `key: value` is a mapping of one pair.
    mutating func flowSequence() throws(YAMLError) -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        let open = mark()
        pos += 1
        var items: [YAMLNode] = []
        while true {
            try skipFlowSpace()
            if peek() == Byte.closeBracket { break }
            if atEnd { throw notClosed("list", "[", open) }
            let item = try inlineNode(flow: true)
            skipBlanks()
            if peek() == Byte.colon {
                // `[a: b]` is `[{a: b}]`: a mapping of one pair, its key on one line.
                try checkKey(item)
                pos += 1
                let afterColon = mark()
                try skipFlowSpace()
                let value = peek() == Byte.comma || peek() == Byte.closeBracket ? .scalar(.init("", mark: afterColon)) : try inlineNode(flow: true)
                items.append(.mapping(.init([(item, value)], mark: item.mark)))
            } else {
                items.append(item)
            }
            try skipFlowSpace()
            let b = peek()
            if b == Byte.comma {
                pos += 1
            } else if b == Byte.closeBracket {
                break
            } else if b == 0 {
                throw notClosed("list", "[", open)
            } else {
                throw error("expected ',' or ']' in the list opened on line \(open.line), found \(Self.describe(b))")
            }
        }
        pos += 1  // the ']'
        return .sequence(.init(items, mark: open))
    }

    /// `{key: value, …}`, over as many lines as it takes. A key without `:` has an empty value.
    mutating func flowMapping() throws(YAMLError) -> YAMLNode {
        try enter()
        defer { depth -= 1 }
        let open = mark()
        pos += 1
        var pairs: [YAMLNode.Mapping.Element] = []
        var keys = KeySet()
        while true {
            try skipFlowSpace()
            if peek() == Byte.closeBrace { break }
            if atEnd { throw notClosed("mapping", "{", open) }
            if peek() == Byte.question { throw error("complex keys ('?') are not supported") }
            if peek() == Byte.colon { throw error("a key is missing before ':'") }
            let key = try inlineNode(flow: true)
            try checkKey(key)
            try keys.insert(key)
            // The ':' of a key is on the key's line (libyaml's simple keys).
            skipBlanks()
            let value: YAMLNode
            if peek() == Byte.colon {
                pos += 1
                let afterColon = mark()
                try skipFlowSpace()
                value = peek() == Byte.comma || peek() == Byte.closeBrace ? .scalar(.init("", mark: afterColon)) : try inlineNode(flow: true)
                try skipFlowSpace()
            } else {
                try skipFlowSpace()
                value = .scalar(.init("", mark: mark()))  // at the ',' or '}' that ends the pair, as libyaml marks it
            }
            pairs.append((key, value))
            let b = peek()
            if b == Byte.comma {
                pos += 1
            } else if b == Byte.closeBrace {
                break
            } else if b == 0 {
                throw notClosed("mapping", "{", open)
            } else {
                throw error("expected ',' or '}' in the mapping opened on line \(open.line), found \(Self.describe(b))")
            }
        }
        pos += 1  // the '}'
        return .mapping(.init(pairs, mark: open))
    }

    /// Inside a flow collection: blanks, line breaks and comments.
    mutating func skipFlowSpace() throws(YAMLError) {
        while !atEnd {
            let b = bytes[pos]
            if Self.isBlank(b) {
                pos += 1
            } else if Self.isBreak(b) {
                consumeBreak()
            } else if b == Byte.hash && afterBlank() {
                while !atEnd && !Self.isBreak(bytes[pos]) { pos += 1 }
            } else {
                return
            }
        }
    }

    func notClosed(_ what: String, _ bracket: String, _ open: YAMLMark) -> YAMLError {
        error("the \(what) opened with '\(bracket)' on line \(open.line) is not closed")
    }
}
