import InputCore
import YAMLReader

/// Reads `libinput record` YAML, file format version 1 (libinput `tools/libinput-record.man`,
/// FILE FORMAT): `version`, `devices: [{node, evdev: {name, id, codes, absinfo, properties},
/// events: [{evdev: [[sec, usec, type, code, value], ...]}, ...]}]`. Each `evdev` list is one
/// frame ending in `SYN_REPORT`. As the format requires, unknown keys are ignored; an unknown
/// major `version` is refused.
public enum LibinputRecordReader {
    public static let supportedVersion = 1

    public static func read(_ bytes: [UInt8], file: String) throws(RecordingError) -> Recording {
        let parsed: YAMLNode?
        do throws(YAMLError) {
            parsed = try YAML.parse(bytes)
        } catch {
            throw RecordingError(file: file, line: error.line, message: "invalid YAML: \(RecordingError.sanitized(error.message))")
        }
        guard let root = parsed else { throw RecordingError(file: file, line: nil, message: "the file is empty") }
        let reader = Reader(file: file)
        return try reader.recording(root)
    }

    private struct Reader {
        let file: String

        func fail(_ node: YAMLNode?, _ message: String) -> RecordingError {
            RecordingError(file: file, line: node?.mark.line, message: message)
        }

        func int(_ node: YAMLNode?, _ what: String) throws(RecordingError) -> Int64 {
            guard let node, let s = node.scalar?.string, let v = Int64(s) else {
                throw fail(node, "expected an integer for \(what), found \(describe(node))")
            }
            return v
        }

        func int32(_ node: YAMLNode?, _ what: String) throws(RecordingError) -> Int32 {
            let v = try int(node, what)
            guard let r = Int32(exactly: v) else { throw fail(node, "\(what) \(v) does not fit in 32 bits") }
            return r
        }

        func uint16(_ node: YAMLNode?, _ what: String, max: UInt16 = .max) throws(RecordingError) -> UInt16 {
            let v = try int(node, what)
            guard v >= 0, v <= Int64(max) else { throw fail(node, "expected \(what) in 0...\(max), found \(v)") }
            return UInt16(v)
        }

        func sequence(_ node: YAMLNode?, _ what: String) throws(RecordingError) -> YAMLNode.Sequence {
            guard let node, let seq = node.sequence else { throw fail(node, "expected a list for \(what), found \(describe(node))") }
            return seq
        }

        func mapping(_ node: YAMLNode?, _ what: String) throws(RecordingError) -> YAMLNode.Mapping {
            guard let node, let map = node.mapping else { throw fail(node, "expected a mapping for \(what), found \(describe(node))") }
            return map
        }

        func describe(_ node: YAMLNode?) -> String {
            guard let node else { return "nothing" }
            switch node {
            case .scalar(let s): return RecordingError.excerpt(s.string)
            case .mapping: return "a mapping"
            case .sequence: return "a list"
            }
        }

        func recording(_ root: YAMLNode) throws(RecordingError) -> Recording {
            let top = try mapping(root, "the top level")
            guard let versionNode = top["version"] else {
                throw fail(root, "expected a 'version' key: this is not a libinput recording")
            }
            let version = try int(versionNode, "version")
            guard version == Int64(LibinputRecordReader.supportedVersion) else {
                throw fail(versionNode, "unsupported libinput-record version \(version) (strokes reads version 1)")
            }
            let devicesNode = top["devices"]
            let devices = try sequence(devicesNode, "'devices'")
            guard !devices.isEmpty else { throw fail(devicesNode, "expected at least one device in 'devices'") }
            guard devices.count <= RecordingLimits.maxDevices else {
                throw fail(devicesNode, "\(devices.count) devices: strokes reads at most \(RecordingLimits.maxDevices) per recording")
            }
            var out: [RecordedDevice] = []
            for device in devices {
                out.append(try recordedDevice(device))
            }
            return Recording(format: .libinputRecord, devices: out)
        }

        func recordedDevice(_ node: YAMLNode) throws(RecordingError) -> RecordedDevice {
            let map = try mapping(node, "a device")
            let evdevNode = map["evdev"]
            let evdev = try mapping(evdevNode, "the device's 'evdev' description")
            guard let name = evdev["name"]?.scalar?.string else { throw fail(evdevNode, "expected 'name' in 'evdev'") }
            if let problem = RecordingLimits.problem(name: name) { throw fail(evdev["name"], problem) }
            if let node = map["node"]?.scalar?.string, node.utf8.count > RecordingLimits.maxNodeBytes {
                throw fail(map["node"], "the device node is \(node.utf8.count) bytes long; at most \(RecordingLimits.maxNodeBytes) are read (PATH_MAX)")
            }
            let idNode = evdev["id"]
            let ids = try sequence(idNode, "'id' ([bustype, vendor, product, version])")
            guard ids.count == 4 else { throw fail(idNode, "expected 'id' to have 4 numbers, found \(ids.count)") }
            let id = InputID(
                bustype: try uint16(ids[0], "bustype"), vendor: try uint16(ids[1], "vendor"),
                product: try uint16(ids[2], "product"), version: try uint16(ids[3], "version")
            )
            var codes: [EventType: Set<UInt16>] = [:]
            if let codesNode = evdev["codes"] {
                for (key, value) in try mapping(codesNode, "'codes'") {
                    let type = try uint16(key, "an event type", max: EventType.max.rawValue)
                    var set = Set<UInt16>()
                    for code in try sequence(value, "the codes of type \(type)") {
                        set.insert(try uint16(code, "an event code", max: 0x2ff))
                    }
                    if type != 0 { codes[EventType(type)] = set }
                }
            }
            var absInfo: [UInt16: AbsInfo] = [:]
            if let absNode = evdev["absinfo"] {
                for (key, value) in try mapping(absNode, "'absinfo'") {
                    let code = try uint16(key, "an axis code", max: AbsCode.max)
                    let fields = try sequence(value, "the absinfo of axis \(code)")
                    guard fields.count == 5 else {
                        throw fail(value, "expected [min, max, fuzz, flat, resolution] for axis \(code), found \(fields.count) numbers")
                    }
                    let info = AbsInfo(
                        minimum: try int32(fields[0], "min"), maximum: try int32(fields[1], "max"),
                        fuzz: try int32(fields[2], "fuzz"), flat: try int32(fields[3], "flat"),
                        resolution: try int32(fields[4], "resolution")
                    )
                    if let problem = RecordingLimits.problem(axis: code, info) { throw fail(value, problem) }
                    absInfo[code] = info
                }
            }
            var properties = Set<UInt16>()
            if let propNode = evdev["properties"] {
                for p in try sequence(propNode, "'properties'") {
                    properties.insert(try uint16(p, "a property", max: InputProperty.max))
                }
            }
            if let code = RecordingLimits.axisWithoutAbsInfo(codes: codes, absInfo: absInfo) {
                throw fail(evdev["absinfo"] ?? evdev["codes"], RecordingLimits.missingAbsInfo(code, line: "an 'absinfo' entry"))
            }
            let description = DeviceDescription(name: name, id: id, properties: properties, codes: codes, absInfo: absInfo)
            var events: [InputEvent] = []
            var lines: [Int] = []
            var frameLength = FrameLengthCheck()
            if let eventsNode = map["events"] {
                for entry in try sequence(eventsNode, "'events'") {
                    // Other entries (hid, libinput) are not evdev events: ignored as the format says.
                    guard let frame = entry.mapping?["evdev"] else { continue }
                    for item in try sequence(frame, "an 'evdev' frame") {
                        let f = try sequence(item, "an event [sec, usec, type, code, value]")
                        guard f.count == 5 else {
                            throw fail(item, "expected an event [sec, usec, type, code, value], found \(f.count) numbers")
                        }
                        let sec = try int(f[0], "sec")
                        let usec = try int(f[1], "usec")
                        guard sec >= 0, sec <= RecordingLimits.maxSeconds, usec >= 0, usec < 1_000_000 else {
                            throw fail(item, "expected sec in 0...\(RecordingLimits.maxSeconds) and usec in 0..<1000000, found \(sec), \(usec)")
                        }
                        events.append(
                            InputEvent(
                                time: Timestamp(seconds: sec, microseconds: usec),
                                type: EventType(try uint16(f[2], "type", max: EventType.max.rawValue)),
                                code: try uint16(f[3], "code", max: 0x2ff), value: try int32(f[4], "value")
                            )
                        )
                        lines.append(item.mark.line)
                        // Read whole, but a frame this long is no frame a device sends.
                        try frameLength.note(events[events.count - 1], line: item.mark.line, file: file)
                    }
                }
            }
            return RecordedDevice(
                description: description, node: map["node"]?.scalar?.string, events: events,
                truncatedTail: RecordedDevice.tail(of: events, lines: lines)
            )
        }
    }
}
