import InputCore

/// Reads the text `evtest /dev/input/eventN` prints: a header describing the device, then one
/// `Event: time S.U, type T (NAME), code C (NAME), value V` line per event, with `SYN_*` events
/// printed as `-------------- SYN_REPORT ------------`, `++++ SYN_MT_REPORT ++++` and
/// `>>>> SYN_DROPPED <<<<` (evtest.c `print_events()`). `MSC_SCAN` and `MSC_RAW` values are hex.
public enum EvtestReader {
    /// Reads the header (everything before the first `Event: time` line) from `reader`, leaving
    /// the first event line to be read next. Lines evtest does not print (a shell prompt, a
    /// wrapper's messages) are skipped and counted in `skipped`; a malformed line of evtest's own
    /// header (`Input device ID:`, an absinfo line) stops with `file:line`.
    static func readHeader(_ reader: inout LineReader, skipped: inout SkippedLines) throws(RecordingError) -> DeviceDescription {
        func fail(_ message: String) -> RecordingError {
            RecordingError(file: reader.file, line: reader.lineNumber, message: message)
        }
        var name: String?
        var id: InputID?
        var codes: [EventType: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        var absLines: [UInt16: Int] = [:]
        /// Axes with a `Value` line: the device's state when it was dumped (`DeviceDescription.currentValues`).
        var valueLines: Set<UInt16> = []
        var properties = Set<UInt16>()
        var currentType: UInt16?
        var currentCode: UInt16?
        var inProperties = false
        var inRepeat = false
        var sawAnything = false
        var firstEventLine: Int?

        while let range = try reader.nextLine() {
            sawAnything = true
            if reader.consumed > RecordingLimits.maxHeaderBytes {
                throw fail("the header (the lines before the first event) is longer than \(RecordingLimits.maxHeaderBytes) bytes")
            }
            let line = reader.string(range)
            let trimmed = line.trimmingSpaces()
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("Event: time ") {
                firstEventLine = reader.lineNumber
                reader.pushBack(range)
                break
            }
            if trimmed.hasPrefix("Input driver version is") || trimmed.hasPrefix("Testing ...")
                || trimmed.hasPrefix("Supported events:") || trimmed.hasPrefix("Available devices:")
                || trimmed.hasPrefix("Select the device event number") || trimmed.hasPrefix("/dev/input/event")
            {
                continue
            }
            if trimmed.hasPrefix("Input device ID:") {
                let words = trimmed.split(separator: " ")
                func field(_ key: String) -> UInt16? {
                    guard let i = words.firstIndex(where: { $0 == key }), i + 1 < words.count else { return nil }
                    var w = words[i + 1]
                    if w.hasPrefix("0x") { w = w.dropFirst(2) }
                    return UInt16(w, radix: 16)
                }
                guard let bus = field("bus"), let vendor = field("vendor"), let product = field("product"),
                    let version = field("version")
                else {
                    throw fail(
                        "expected 'Input device ID: bus 0x.. vendor 0x.. product 0x.. version 0x..', found \(RecordingError.excerpt(trimmed))"
                    )
                }
                id = InputID(bustype: bus, vendor: vendor, product: product, version: version)
                continue
            }
            if trimmed.hasPrefix("Input device name:") {
                var n = trimmed.dropFirst("Input device name:".count).trimmingSpaces()
                if n.hasPrefix("\"") && n.hasSuffix("\"") && n.count >= 2 { n = n.dropFirst().dropLast() }
                if let problem = RecordingLimits.problem(name: n) { throw fail(problem) }
                name = String(n)
                continue
            }
            if trimmed.hasPrefix("Properties:") {
                inProperties = true
                inRepeat = false
                continue
            }
            if trimmed.hasPrefix("Key repeat handling:") {
                inRepeat = true
                inProperties = false
                continue
            }
            let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if inProperties, words.count >= 3, words[0] == "Property", words[1] == "type", let p = UInt16(words[2]) {
                guard p <= InputProperty.max else { throw fail("property \(p) is beyond INPUT_PROP_MAX (\(InputProperty.max))") }
                properties.insert(p)
                continue
            }
            if inRepeat { continue }  // "Repeat type 20 (EV_REP)" and its values: not needed.
            if words.count >= 3, words[0] == "Event", words[1] == "type", let t = UInt16(words[2]) {
                guard t <= EventType.max.rawValue else { throw fail("event type \(t) is beyond EV_MAX (\(EventType.max.rawValue))") }
                currentType = t
                currentCode = nil
                continue
            }
            if words.count >= 3, words[0] == "Event", words[1] == "code", let c = UInt16(words[2]), let t = currentType {
                guard c <= RecordingLimits.maxCode else {
                    throw fail("event code \(c) is beyond the highest event code (\(RecordingLimits.maxCode))")
                }
                currentCode = c
                if t != 0 { codes[EventType(t), default: []].insert(c) }
                if t == EventType.abs.rawValue {
                    guard c <= AbsCode.max else { throw fail("axis code \(c) is beyond ABS_MAX (\(AbsCode.max))") }
                    absInfo[c] = AbsInfo(minimum: 0, maximum: 0)
                    absLines[c] = reader.lineNumber
                }
                continue
            }
            if words.count == 2, currentType == EventType.abs.rawValue, let c = currentCode, let v = Int32(words[1]) {
                switch words[0] {
                case "Value":
                    absInfo[c]!.value = v
                    valueLines.insert(c)
                case "Min": absInfo[c]!.minimum = v
                case "Max": absInfo[c]!.maximum = v
                case "Fuzz": absInfo[c]!.fuzz = v
                case "Flat": absInfo[c]!.flat = v
                case "Resolution": absInfo[c]!.resolution = v
                default:
                    throw fail("expected an absinfo line (Value, Min, Max, Fuzz, Flat, Resolution), found \(RecordingError.excerpt(trimmed))")
                }
                continue
            }
            if words.count == 2, currentType == EventType.abs.rawValue, Int32(words[1]) != nil,
                ["Value", "Min", "Max", "Fuzz", "Flat", "Resolution"].contains(words[0])
            {
                // Its axis line is missing (cut, or mangled in pasting): the range would be lost
                // and the axis read as undeclared, which refuses the whole file without a line.
                throw fail("expected an 'Event code N (NAME)' line of an axis before \(RecordingError.excerpt(trimmed))")
            }
            if words.count >= 2, words[0] == "State" { continue }  // EV_SW / EV_LED states.
            skipped.add(line: reader.lineNumber)
        }
        guard sawAnything else { throw RecordingError(file: reader.file, line: nil, message: "the file is empty") }
        guard let name, let id else {
            throw RecordingError(
                file: reader.file, line: firstEventLine, message: "expected an evtest header with 'Input device ID:' and 'Input device name:' before the events"
            )
        }
        for (code, info) in absInfo.sorted(by: { $0.key < $1.key }) {
            if let problem = RecordingLimits.problem(axis: code, info) {
                throw RecordingError(file: reader.file, line: absLines[code], message: problem)
            }
        }
        return DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo, currentValues: valueLines)
    }

    /// What one line after the header is.
    static func eventLine(_ text: Substring) -> EvemuReader.EventLine {
        let trimmed = text.trimmingSpaces()
        guard trimmed.hasPrefix("Event: time ") else { return .skipped }
        guard let event = parseEvent(trimmed) else {
            return .malformed(
                "expected 'Event: time <sec>.<usec>, type <type> (<name>), code <code> (<name>), value <value>' or a SYN line, found \(RecordingError.excerpt(trimmed))"
            )
        }
        return .event(event)
    }

    /// Parses the part after `Event: time `.
    static func parseEvent(_ line: Substring) -> InputEvent? {
        var rest = line.dropFirst("Event: time ".count)
        guard let comma = rest.firstIndex(of: ",") else { return nil }
        let timeText = rest[..<comma]
        rest = rest[rest.index(after: comma)...].trimmingSpaces()
        guard let time = parseTime(timeText) else { return nil }
        if rest.hasPrefix("-") || rest.hasPrefix("+") || rest.hasPrefix(">") {
            let label = rest.filter { !"-+<> ".contains($0) }
            let code: UInt16
            switch label {
            case "SYN_REPORT": code = SynCode.report
            case "SYN_MT_REPORT": code = SynCode.mtReport
            case "SYN_DROPPED": code = SynCode.dropped
            case "SYN_CONFIG": code = SynCode.config
            // Older evtest builds (before SYN codes were named) print every SYN_REPORT as
            // "Report Sync" and every other SYN code as "Config Sync".
            case "ReportSync": code = SynCode.report
            case "ConfigSync": code = SynCode.config
            default: return nil
            }
            return InputEvent(time: time, type: .syn, code: code, value: 0)
        }
        // type T (NAME), code C (NAME), value V
        let parts = rest.split(separator: ",").map { $0.trimmingSpaces() }
        guard parts.count == 3, parts[0].hasPrefix("type "), parts[1].hasPrefix("code "), parts[2].hasPrefix("value ") else {
            return nil
        }
        func number(_ s: Substring, _ key: String) -> Int? {
            Int(s.dropFirst(key.count).prefix(while: { $0 != " " }))
        }
        guard let type = number(parts[0], "type "), type >= 0, type <= 0x1f,
            let code = number(parts[1], "code "), code >= 0, code <= 0x2ff
        else { return nil }
        let valueText = parts[2].dropFirst("value ".count)
        let isHex = type == Int(EventType.msc.rawValue) && (code == 3 || code == 4)
        let value: Int64?
        if isHex {
            value = UInt32(valueText, radix: 16).map { Int64(Int32(bitPattern: $0)) }
        } else {
            value = Int64(valueText)
        }
        guard let value, value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return InputEvent(time: time, type: EventType(UInt16(type)), code: UInt16(code), value: Int32(value))
    }

    static func parseTime(_ text: Substring) -> Timestamp? {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let sec = Int64(parts[0]), sec >= 0, sec <= RecordingLimits.maxSeconds, parts[1].count <= 6, let frac = Int64(parts[1]), frac >= 0
        else { return nil }
        var usec = frac
        for _ in parts[1].count..<6 { usec *= 10 }
        return Timestamp(seconds: sec, microseconds: usec)
    }
}
