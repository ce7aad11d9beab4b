/// Plain, single-quoted and double-quoted scalars.
extension YAMLParser {
    /// A plain scalar, on one line: up to a `: `, a ` #` comment, the line's end, or in a flow
    /// collection `,[]{}`. Trailing blanks are not part of it. In a flow collection `name:X` is
    /// one scalar, and a `:` right before `,?[]{}` is refused, as libyaml (which Yams wrapped) did.
    mutating func plain(flow: Bool) throws(YAMLError) -> YAMLNode.Scalar {
        let start = pos
        let startMark = mark()
        var end = pos
        while pos < bytes.count {
            let b = bytes[pos]
            if Self.isBreak(b) { break }
            if Self.isBlank(b) {
                if peek(1) == Byte.hash { break }
                pos += 1
                continue
            }
            if b == Byte.colon {
                if Self.isSeparator(peek(1)) { break }
                if flow && (Self.isFlowIndicator(peek(1)) || peek(1) == Byte.question) {
                    throw error("unexpected ':' before \(Self.describe(peek(1))) (put a blank after ':', or quote the value)")
                }
            }
            if flow && Self.isFlowIndicator(b) { break }
            pos += 1
            end = pos
        }
        pos = end
        return .init(String(decoding: bytes[start..<end], as: UTF8.self), style: .plain, mark: startMark)
    }

    /// `'…'`: `''` is a quote; line breaks fold.
    mutating func singleQuoted() throws(YAMLError) -> YAMLNode.Scalar {
        let open = mark()
        pos += 1
        var out: [UInt8] = []
        while true {
            guard !atEnd else { throw error("the quoted value opened on line \(open.line) is not closed") }
            let b = bytes[pos]
            if b == Byte.singleQuote {
                if peek(1) == Byte.singleQuote {
                    out.append(b)
                    pos += 2
                    continue
                }
                pos += 1
                break
            }
            if Self.isBlank(b) || Self.isBreak(b) {
                fold(into: &out)
            } else {
                out.append(b)
                pos += 1
            }
        }
        return .init(String(decoding: out, as: UTF8.self), style: .singleQuoted, mark: open)
    }

    /// `"…"`: YAML's escapes (`\n`, `\t`, `\"`, `\\`, `\xXX`, `\uXXXX`, `\UXXXXXXXX`, …); line
    /// breaks fold, and a `\` at a line's end joins the lines.
    mutating func doubleQuoted() throws(YAMLError) -> YAMLNode.Scalar {
        let open = mark()
        pos += 1
        var out: [UInt8] = []
        while true {
            guard !atEnd else { throw error("the quoted value opened on line \(open.line) is not closed") }
            let b = bytes[pos]
            if b == Byte.doubleQuote {
                pos += 1
                break
            }
            if b == Byte.backslash {
                try escape(into: &out)
            } else if Self.isBlank(b) || Self.isBreak(b) {
                fold(into: &out)
            } else {
                out.append(b)
                pos += 1
            }
        }
        return .init(String(decoding: out, as: UTF8.self), style: .doubleQuoted, mark: open)
    }

    /// At a `\` in a double-quoted scalar.
    private mutating func escape(into out: inout [UInt8]) throws(YAMLError) {
        let e = peek(1)
        if Self.isBreak(e) {
            // An escaped line break: the lines join with nothing between them.
            pos += 1
            consumeBreak()
            while true {
                skipBlanks()
                guard Self.isBreak(peek()) else { break }
                out.append(Byte.lf)
                consumeBreak()
            }
            return
        }
        let simple: UInt8? =
            switch e {
            case UInt8(ascii: "0"): 0
            case UInt8(ascii: "a"): 7
            case UInt8(ascii: "b"): 8
            case UInt8(ascii: "t"), Byte.tab: 9
            case UInt8(ascii: "n"): 10
            case UInt8(ascii: "v"): 11
            case UInt8(ascii: "f"): 12
            case UInt8(ascii: "r"): 13
            case UInt8(ascii: "e"): 27
            case Byte.space, Byte.doubleQuote, UInt8(ascii: "/"), Byte.backslash: e
            default: nil
            }
        if let simple {
            out.append(simple)
            pos += 2
            return
        }
        let scalar: UInt32
        switch e {
        case UInt8(ascii: "N"): scalar = 0x85
        case UInt8(ascii: "_"): scalar = 0xa0
        case UInt8(ascii: "L"): scalar = 0x2028
        case UInt8(ascii: "P"): scalar = 0x2029
        case UInt8(ascii: "x"), UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = e == UInt8(ascii: "x") ? 2 : e == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for i in 0..<digits {
                guard let d = Self.hexDigit(peek(2 + i)) else {
                    throw error("'\\\(Character(Unicode.Scalar(e)))' needs \(digits) hexadecimal digits")
                }
                value = value << 4 | d
            }
            guard Unicode.Scalar(value) != nil else {
                throw error("'\\\(Character(Unicode.Scalar(e)))' escapes no character (U+\(String(value, radix: 16, uppercase: true)))")
            }
            scalar = value
            pos += digits
        default:
            throw error("unknown escape \(e == 0 ? "'\\' at the end of the text" : "'\\' followed by \(Self.describe(e))") in a double-quoted value")
        }
        pos += 2
        out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
    }

    static func hexDigit(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(b - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// At a blank or line break in a quoted scalar. Blanks within a line are kept; a line break
    /// with the blanks around it folds to a space, n breaks in a row to n - 1 newlines.
    private mutating func fold(into out: inout [UInt8]) {
        let start = pos
        skipBlanks()
        guard Self.isBreak(peek()) else {
            out.append(contentsOf: bytes[start..<pos])
            return
        }
        var breaks = 0
        while true {
            if Self.isBreak(peek()) {
                consumeBreak()
                breaks += 1
            } else if Self.isBlank(peek()) {
                pos += 1
            } else {
                break
            }
        }
        if breaks == 1 {
            out.append(Byte.space)
        } else {
            out.append(contentsOf: repeatElement(Byte.lf, count: breaks - 1))
        }
    }
}
