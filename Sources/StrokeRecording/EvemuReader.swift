import InputCore

/// Reads `evemu-record` output: every format version, from the header-less 1.0 files to 1.3.
///
/// Format (evemu `README.md`): `N:` name, `I:` ids (hex), `P:` property bytes, `B:` per-type code
/// bitmask bytes (a type may span several lines), `A:` code min max fuzz flat [resolution],
/// `L:`/`S:` LED and switch states, then `E: sec.usec type code value` events. Comments start with
/// `#` (1.1+ allows them at the end of any line but `N:`). The absinfo *values*, including the
/// initial `ABS_MT_SLOT`, appear only in the comment block evemu writes above the data; they are
/// read from there when present.
public enum EvemuReader {
    /// Reads the header (everything before the first `E:` line) from `reader`, leaving the first
    /// event line to be read next.
    static func readHeader(_ reader: inout LineReader) throws(RecordingError) -> (RecordingFormat, DeviceDescription) {
        var parser = Parser(reader: reader)
        defer { reader = parser.reader }
        return try parser.parseHeader()
    }

    /// What one line after the header is.
    enum EventLine {
        case event(InputEvent)
        /// A blank or comment line (`#`): skipped and counted.
        case skipped
        case malformed(String)
    }

    /// Parses one line of the event section.
    static func eventLine(_ buf: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> EventLine {
        var c = FieldCursor(buf, line)
        c.skipSpaces()
        if c.atEnd || buf[c.position] == UInt8(ascii: "#") { return .skipped }
        guard c.expect(UInt8(ascii: "E")), c.expect(UInt8(ascii: ":")) else {
            return .malformed("expected an event line 'E: <sec>.<usec> <type> <code> <value>', found \(RecordingError.excerpt(buf[line]))")
        }
        c.skipSpaces()
        guard let time = c.timestamp(), let type = c.hex(), type <= 0x1f, let code = c.hex(), code <= UInt64(RecordingLimits.maxCode),
            let value = c.decimal(), value >= Int64(Int32.min), value <= Int64(Int32.max),
            c.atEndIgnoringComment()
        else {
            return .malformed("expected 'E: <sec>.<usec> <type (hex)> <code (hex)> <value>', found \(RecordingError.excerpt(buf[line]))")
        }
        return .event(
            InputEvent(time: Timestamp(microseconds: time), type: EventType(UInt16(type)), code: UInt16(code), value: Int32(value))
        )
    }

    private struct Parser {
        var reader: LineReader
        var file: String { reader.file }
        var version = (major: 1, minor: 0)
        var name: String?
        var id: InputID?
        var properties = Set<UInt16>()
        var codes: [EventType: Set<UInt16>] = [:]
        var maskOffsets: [UInt16: Int] = [:]
        var propertyOffset = 0
        var absInfo: [UInt16: AbsInfo] = [:]
        var commentAbsValues: [UInt16: Int32] = [:]
        var commentAbsResolutions: [UInt16: Int32] = [:]
        var commentType: Int64?
        var commentCode: Int64?

        init(reader: LineReader) {
            self.reader = reader
        }

        func error(_ message: String, line: Int? = nil) -> RecordingError {
            RecordingError(file: file, line: line ?? reader.lineNumber, message: message)
        }

        func found(_ line: Range<Int>) -> String { RecordingError.excerpt(reader.buffer[line]) }

        mutating func parseHeader() throws(RecordingError) -> (RecordingFormat, DeviceDescription) {
            var sawAnything = false
            while let line = try reader.nextLine() {
                sawAnything = true
                if reader.consumed > RecordingLimits.maxHeaderBytes {
                    throw error("the header (the lines before the first event) is longer than \(RecordingLimits.maxHeaderBytes) bytes")
                }
                let text = reader.buffer[line]
                guard let first = text.first(where: { !FieldCursor.isSpace($0) }) else { continue }
                if first == UInt8(ascii: "#") {
                    headerComment(line)
                    continue
                }
                let tag = prefix(line)
                switch tag {
                case "N:": try parseName(line)
                case "I:": try parseID(line)
                case "P:": try parseProperties(line)
                case "B:": try parseMask(line)
                case "A:": try parseAbs(line)
                case "L:", "S:": try parseState(line, tag: tag)
                case "E:":
                    let eventLine = reader.lineNumber
                    reader.pushBack(line)
                    return try finish(at: eventLine)
                default:
                    throw error(
                        "expected a device description line (N:, I:, P:, B:, A:, L:, S:) or an event line (E:), found \(found(line))"
                    )
                }
            }
            guard sawAnything else { throw RecordingError(file: file, line: nil, message: "the file is empty") }
            return try finish(at: reader.lineNumber)
        }

        /// Completes the description; `line` is the first event's line (or the last line).
        mutating func finish(at line: Int) throws(RecordingError) -> (RecordingFormat, DeviceDescription) {
            guard let name else { throw error("expected 'N: <device name>' before the events", line: line) }
            guard let id else { throw error("expected 'I: <bustype> <vendor> <product> <version>' before the events", line: line) }
            for (code, value) in commentAbsValues where absInfo[code] != nil {
                absInfo[code]!.value = value
            }
            // Format 1.0/1.1 `A:` lines have no resolution field, but evemu-record's comment block
            // above them does: use it where the A: line was silent.
            for (code, resolution) in commentAbsResolutions where absInfo[code]?.resolution == 0 {
                absInfo[code]!.resolution = resolution
            }
            if let code = RecordingLimits.axisWithoutAbsInfo(codes: codes, absInfo: absInfo) {
                throw error(RecordingLimits.missingAbsInfo(code, line: "an 'A: \(String(code, radix: 16))' line"), line: line)
            }
            let description = DeviceDescription(
                name: name, id: id, properties: properties, codes: codes, absInfo: absInfo,
                currentValues: Set(commentAbsValues.keys))
            return (.evemu(major: version.major, minor: version.minor), description)
        }

        func prefix(_ line: Range<Int>) -> String {
            var i = line.lowerBound
            while i < line.upperBound && FieldCursor.isSpace(reader.buffer[i]) { i += 1 }
            guard i + 1 < line.upperBound else { return "" }
            return String(decoding: reader.buffer[i..<(i + 2)], as: UTF8.self)
        }

        /// Header comments: the `# EVEMU x.y` version and evemu's human-readable device dump, whose
        /// `Value` lines are the only place the absinfo values are written.
        mutating func headerComment(_ line: Range<Int>) {
            var text = Substring(reader.string(line))
            text = text.drop(while: { $0 == "#" || $0 == " " || $0 == "\t" })
            if reader.lineNumber == 1, text.hasPrefix("EVEMU ") {
                let parts = text.dropFirst(6).split(separator: ".")
                if parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1].prefix(while: \.isNumber)) {
                    version = (major, minor)
                }
                return
            }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count >= 2 else { return }
            if words[0] == "Event", words.count >= 3, words[1] == "type" {
                commentType = Int64(words[2])
                commentCode = nil
            } else if words[0] == "Event", words.count >= 3, words[1] == "code" {
                commentCode = Int64(words[2])
            } else if words[0] == "Value" || words[0] == "Resolution", commentType == Int64(EventType.abs.rawValue),
                let code = commentCode, code >= 0, code <= Int64(AbsCode.max), let value = Int32(words[1])
            {
                if words[0] == "Value" {
                    commentAbsValues[UInt16(code)] = value
                } else {
                    commentAbsResolutions[UInt16(code)] = value
                }
            }
        }

        mutating func parseName(_ line: Range<Int>) throws(RecordingError) {
            // No comment stripping: '#' may be part of the name (evemu README).
            let text = reader.string(line).drop(while: { $0 == " " || $0 == "\t" }).dropFirst(2).trimmingSpaces()
            if let problem = RecordingLimits.problem(name: text) { throw error(problem) }
            name = String(text)
        }

        mutating func parseID(_ line: Range<Int>) throws(RecordingError) {
            var values: [UInt16] = []
            let ok = reader.buffer.withUnsafeBufferPointer { buf -> Bool in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                for _ in 0..<4 {
                    guard let v = c.hex(), v <= UInt16.max else { return false }
                    values.append(UInt16(v))
                }
                return c.atEndIgnoringComment()
            }
            guard ok else { throw error("expected 'I: <bustype> <vendor> <product> <version>' in hex, found \(found(line))") }
            id = InputID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
        }

        func hexBytes(_ line: Range<Int>, skipFirst: Bool) -> (first: UInt64?, bytes: [UInt8])? {
            reader.buffer.withUnsafeBufferPointer { buf in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                var first: UInt64?
                if skipFirst {
                    guard let f = c.hex() else { return nil }
                    first = f
                }
                var out: [UInt8] = []
                while !c.atEndIgnoringComment() {
                    guard let b = c.hex(), b <= 0xff else { return nil }
                    out.append(UInt8(b))
                }
                return (first, out)
            }
        }

        mutating func parseProperties(_ line: Range<Int>) throws(RecordingError) {
            guard let (_, bytes) = hexBytes(line, skipFirst: false) else {
                throw error("expected 'P: <byte> ...' with hex bytes, found \(found(line))")
            }
            for (i, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let property = (propertyOffset + i) * 8 + bit
                    guard property <= Int(InputProperty.max) else {
                        throw error("property \(property) is beyond INPUT_PROP_MAX (\(InputProperty.max))")
                    }
                    properties.insert(UInt16(property))
                }
            }
            propertyOffset += bytes.count
        }

        mutating func parseMask(_ line: Range<Int>) throws(RecordingError) {
            guard let (first, bytes) = hexBytes(line, skipFirst: true), let rawType = first, rawType <= 0x1f else {
                throw error("expected 'B: <type> <byte> ...' with hex values and a type up to EV_MAX, found \(found(line))")
            }
            let type = EventType(UInt16(rawType))
            let offset = maskOffsets[type.rawValue, default: 0]
            for (i, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let code = (offset + i) * 8 + bit
                    guard code <= Int(RecordingLimits.maxCode) else {
                        throw error("code \(code) of event type \(rawType) is beyond the highest event code (\(RecordingLimits.maxCode))")
                    }
                    codes[type, default: []].insert(UInt16(code))
                }
            }
            maskOffsets[type.rawValue] = offset + bytes.count
        }

        mutating func parseAbs(_ line: Range<Int>) throws(RecordingError) {
            var fields: [Int64] = []
            var code: UInt64?
            let ok = reader.buffer.withUnsafeBufferPointer { buf -> Bool in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                code = c.hex()
                guard code != nil else { return false }
                while !c.atEndIgnoringComment() {
                    guard let v = c.decimal(), v >= Int64(Int32.min), v <= Int64(Int32.max) else { return false }
                    fields.append(v)
                }
                return true
            }
            guard ok, let code, code <= UInt64(AbsCode.max), fields.count == 4 || fields.count == 5 else {
                throw error(
                    "expected 'A: <code> <min> <max> <fuzz> <flat> [<resolution>]' (5 or 6 fields), found \(found(line))"
                )
            }
            let f = fields.map { Int32($0) }
            let info = AbsInfo(minimum: f[0], maximum: f[1], fuzz: f[2], flat: f[3], resolution: f.count == 5 ? f[4] : 0)
            if let problem = RecordingLimits.problem(axis: UInt16(code), info) { throw error(problem) }
            absInfo[UInt16(code)] = info
        }

        mutating func parseState(_ line: Range<Int>, tag: String) throws(RecordingError) {
            let ok = reader.buffer.withUnsafeBufferPointer { buf -> Bool in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                return c.hex() != nil && c.decimal() != nil && c.atEndIgnoringComment()
            }
            guard ok else { throw error("expected '\(tag) <code> <state>', found \(found(line))") }
        }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> SubSequence {
        var s = self[...]
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return s
    }
}
