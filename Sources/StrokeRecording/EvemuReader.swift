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
    public static func read(_ bytes: [UInt8], file: String) throws(RecordingError) -> Recording {
        var parser = Parser(bytes: bytes, file: file)
        return try parser.parse()
    }

    private struct Parser {
        var scanner: LineScanner
        let file: String
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

        init(bytes: [UInt8], file: String) {
            self.scanner = LineScanner(bytes)
            self.file = file
        }

        func error(_ message: String, line: Int? = nil) -> RecordingError {
            RecordingError(file: file, line: line ?? scanner.lineNumber, message: message)
        }

        mutating func parse() throws(RecordingError) -> Recording {
            var sawAnything = false
            var firstEventLine: Range<Int>?
            while let line = scanner.nextLine() {
                sawAnything = true
                let text = scanner.bytes[line]
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
                    firstEventLine = line
                default:
                    throw error(
                        "expected a device description line (N:, I:, P:, B:, A:, L:, S:) or an event line (E:), found '\(scanner.string(line))'"
                    )
                }
                if firstEventLine != nil { break }
            }
            guard sawAnything else { throw RecordingError(file: file, line: nil, message: "the file is empty") }
            guard let name else { throw error("expected 'N: <device name>' before the events", line: scanner.lineNumber) }
            guard let id else { throw error("expected 'I: <bustype> <vendor> <product> <version>' before the events") }
            for (code, value) in commentAbsValues where absInfo[code] != nil {
                absInfo[code]!.value = value
            }
            // Format 1.0/1.1 `A:` lines have no resolution field, but evemu-record's comment block
            // above them does: use it where the A: line was silent.
            for (code, resolution) in commentAbsResolutions where absInfo[code]?.resolution == 0 {
                absInfo[code]!.resolution = resolution
            }
            let description = DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo)
            var events: [InputEvent] = []
            var tail: TruncatedTail?
            if let firstEventLine {
                scanner.pushBack(firstEventLine)
                events.reserveCapacity(scanner.bytes.count / 40)
                tail = try parseEvents(into: &events)
            }
            return Recording(
                format: .evemu(major: version.major, minor: version.minor),
                devices: [RecordedDevice(description: description, events: events, truncatedTail: tail)]
            )
        }

        func prefix(_ line: Range<Int>) -> String {
            var i = line.lowerBound
            while i < line.upperBound && FieldCursor.isSpace(scanner.bytes[i]) { i += 1 }
            guard i + 1 < line.upperBound else { return "" }
            return String(decoding: scanner.bytes[i..<(i + 2)], as: UTF8.self)
        }

        /// Header comments: the `# EVEMU x.y` version and evemu's human-readable device dump, whose
        /// `Value` lines are the only place the absinfo values are written.
        mutating func headerComment(_ line: Range<Int>) {
            var text = Substring(scanner.string(line))
            text = text.drop(while: { $0 == "#" || $0 == " " || $0 == "\t" })
            if scanner.lineNumber == 1, text.hasPrefix("EVEMU ") {
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
            let text = scanner.string(line).drop(while: { $0 == " " || $0 == "\t" }).dropFirst(2)
            name = String(text.trimmingSpaces())
        }

        mutating func parseID(_ line: Range<Int>) throws(RecordingError) {
            var values: [UInt16] = []
            let ok = scanner.bytes.withUnsafeBufferPointer { buf -> Bool in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                for _ in 0..<4 {
                    guard let v = c.hex(), v <= UInt16.max else { return false }
                    values.append(UInt16(v))
                }
                return c.atEndIgnoringComment()
            }
            guard ok else { throw error("expected 'I: <bustype> <vendor> <product> <version>' in hex, found '\(scanner.string(line))'") }
            id = InputID(bustype: values[0], vendor: values[1], product: values[2], version: values[3])
        }

        func hexBytes(_ line: Range<Int>, skipFirst: Bool) -> (first: UInt64?, bytes: [UInt8])? {
            scanner.bytes.withUnsafeBufferPointer { buf in
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
                throw error("expected 'P: <byte> ...' with hex bytes, found '\(scanner.string(line))'")
            }
            for (i, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    properties.insert(UInt16((propertyOffset + i) * 8 + bit))
                }
            }
            propertyOffset += bytes.count
        }

        mutating func parseMask(_ line: Range<Int>) throws(RecordingError) {
            guard let (first, bytes) = hexBytes(line, skipFirst: true), let rawType = first, rawType <= 0x1f else {
                throw error("expected 'B: <type> <byte> ...' with hex values and a type up to EV_MAX, found '\(scanner.string(line))'")
            }
            let type = EventType(UInt16(rawType))
            let offset = maskOffsets[type.rawValue, default: 0]
            for (i, byte) in bytes.enumerated() {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    let code = (offset + i) * 8 + bit
                    codes[type, default: []].insert(UInt16(code))
                }
            }
            maskOffsets[type.rawValue] = offset + bytes.count
        }

        mutating func parseAbs(_ line: Range<Int>) throws(RecordingError) {
            var fields: [Int64] = []
            var code: UInt64?
            let ok = scanner.bytes.withUnsafeBufferPointer { buf -> Bool in
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
                    "expected 'A: <code> <min> <max> <fuzz> <flat> [<resolution>]' (5 or 6 fields), found '\(scanner.string(line))'"
                )
            }
            let f = fields.map { Int32($0) }
            absInfo[UInt16(code)] = AbsInfo(
                minimum: f[0], maximum: f[1], fuzz: f[2], flat: f[3], resolution: f.count == 5 ? f[4] : 0
            )
        }

        mutating func parseState(_ line: Range<Int>, tag: String) throws(RecordingError) {
            let ok = scanner.bytes.withUnsafeBufferPointer { buf -> Bool in
                var c = FieldCursor(buf, line)
                c.skipSpaces()
                c.position += 2
                return c.hex() != nil && c.decimal() != nil && c.atEndIgnoringComment()
            }
            guard ok else { throw error("expected '\(tag) <code> <state>', found '\(scanner.string(line))'") }
        }

        mutating func parseEvents(into events: inout [InputEvent]) throws(RecordingError) -> TruncatedTail? {
            var lineAfterLastSyn: Int?
            var countAfterLastSyn = 0
            var failure: RecordingError?
            let bytes = scanner.bytes
            bytes.withUnsafeBufferPointer { buf in
                while let line = scanner.nextLine() {
                    var c = FieldCursor(buf, line)
                    c.skipSpaces()
                    if c.atEnd || buf[c.position] == UInt8(ascii: "#") { continue }
                    guard c.expect(UInt8(ascii: "E")), c.expect(UInt8(ascii: ":")) else {
                        failure = error("expected an event line 'E: <sec>.<usec> <type> <code> <value>', found '\(scanner.string(line))'")
                        return
                    }
                    c.skipSpaces()
                    guard let time = c.timestamp(), let type = c.hex(), type <= 0x1f, let code = c.hex(), code <= 0x2ff,
                        let value = c.decimal(), value >= Int64(Int32.min), value <= Int64(Int32.max),
                        c.atEndIgnoringComment()
                    else {
                        failure = error(
                            "expected 'E: <sec>.<usec> <type (hex)> <code (hex)> <value>', found '\(scanner.string(line))'"
                        )
                        return
                    }
                    let event = InputEvent(
                        time: Timestamp(microseconds: time), type: EventType(UInt16(type)), code: UInt16(code),
                        value: Int32(value)
                    )
                    events.append(event)
                    if event.closesFrame {
                        lineAfterLastSyn = nil
                        countAfterLastSyn = 0
                    } else {
                        if lineAfterLastSyn == nil { lineAfterLastSyn = scanner.lineNumber }
                        countAfterLastSyn += 1
                    }
                }
            }
            if let failure { throw failure }
            if let line = lineAfterLastSyn { return TruncatedTail(eventCount: countAfterLastSyn, line: line) }
            return nil
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
