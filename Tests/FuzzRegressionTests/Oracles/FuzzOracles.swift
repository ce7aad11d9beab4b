import InputCore
import MultitouchDecoder
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker

/// What the fuzz targets (`Fuzz/`, `Scripts/fuzz.sh`) check, shared with the ordinary tests that
/// replay every input a fuzzer once broke (`Tests/FuzzRegressionTests/Regressions`).
///
/// Beyond "no trap, no sanitizer report", each target has an oracle:
/// - the readers: a recording is read, or refused with a `RecordingError` whose line is in the
///   input and whose message is short and free of control characters; what is read replays
///   through decoder and tracker keeping the lifecycle invariant;
/// - `frames`: any event stream through frame assembly, decoder and tracker keeps the lifecycle
///   invariant (`InvariantPropertyTests`): every `began` is followed by exactly one `ended` or
///   `cancelled`, nothing refers to an unknown stroke, and what is live at the end is what the
///   tracker holds;
/// - `request`: any line is a request or a named protocol error, the same one each time;
/// - `gestures`: any finger sequence through a gesture recogniser keeps its invariant (every
///   `begin` ends or is cancelled once: `GestureOracle.swift`).
/// - `yaml`: any bytes are a YAML document that reads back the same from its canonical form, or
///   an error naming a line of the input (`FuzzOracles+YAML.swift`).
public enum FuzzOracles {
    public enum Target: String, CaseIterable, Sendable {
        case evemu
        case evtest
        case libinputRecord = "libinput-record"
        case frames
        case request
        /// Gesture recognition (`GestureOracle.swift`).
        case gestures
        case yaml
    }

    /// Runs `bytes` through `target`; returns what rule was broken, or nil.
    public static func check(_ target: Target, _ bytes: [UInt8]) -> String? {
        switch target {
        case .evemu: return checkReader(bytes, format: .evemu(major: 1, minor: 0))
        case .evtest: return checkReader(bytes, format: .evtest)
        case .libinputRecord: return checkReader(bytes, format: .libinputRecord)
        case .frames: return checkFrames(bytes)
        case .request: return checkRequest(bytes)
        case .gestures: return checkGestures(bytes)
        case .yaml: return checkYAML(bytes)
        }
    }

    static func checkReader(_ bytes: [UInt8], format: RecordingFormat) -> String? {
        let stream: RecordingStream
        do {
            stream = try RecordingStream.read(bytes, file: "fuzz", format: format)
        } catch {
            return checkError(error, bytes, format: format)
        }
        guard var replayer = try? Replayer(stream: stream, historyLimit: 4) else { return nil }
        var events: [StrokeEvent] = []
        do {
            while try replayer.next(into: &events) != nil {}
        } catch {
            return checkError(error, bytes, format: format)
        }
        return checkLifecycle(events, live: replayer.tracker.inProgress.values.map(\.id))
    }

    static func checkError(_ error: RecordingError, _ bytes: [UInt8], format: RecordingFormat) -> String? {
        var lines = 1
        for (i, byte) in bytes.enumerated() {
            // YAML also breaks lines at a lone CR (YAML 1.1, 5.4); the line readers only at LF.
            if byte == UInt8(ascii: "\n")
                || (format == .libinputRecord && byte == UInt8(ascii: "\r") && (i + 1 == bytes.count || bytes[i + 1] != UInt8(ascii: "\n")))
            {
                lines += 1
            }
        }
        if let line = error.line, line < 1 || line > lines {
            return "error line \(line) outside the input's \(lines) lines: \(error)"
        }
        if error.message.count > 400 { return "error message of \(error.message.count) characters" }
        if error.message.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            return "control character in the error message: \(error)"
        }
        return nil
    }

    /// A touchscreen shaped by the first two bytes, then 6-byte events: kind, code, value (LE).
    static func checkFrames(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 2 else { return nil }
        let slots = Int32(bytes[0] & 0x0f) + 1
        let shape = bytes[1]
        var abs: [UInt16: AbsInfo] = [
            AbsCode.mtSlot: AbsInfo(value: Int32(bytes[0] >> 4) % slots, minimum: 0, maximum: slots - 1),
            AbsCode.mtPositionX: shape & 1 != 0 ? AbsInfo(minimum: 1000, maximum: 0) : AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
            AbsCode.mtPositionY: shape & 2 != 0 ? AbsInfo(minimum: 7, maximum: 7) : AbsInfo(minimum: 0, maximum: 500, resolution: 10),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 500),
        ]
        if shape & 4 != 0 { abs[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2) }
        if shape & 8 != 0 { abs[AbsCode.mtDistance] = AbsInfo(minimum: 0, maximum: 10) }
        if shape & 16 != 0 { abs[AbsCode.mtSlot] = nil }  // single touch
        let description = DeviceDescription(
            name: "fuzz", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: shape & 32 != 0 ? [InputProperty.semiMT] : [InputProperty.direct],
            codes: [.key: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolPen]], absInfo: abs
        )
        guard var decoder = try? MultitouchDecoder(description: description) else { return nil }
        var tracker = StrokeTracker(historyLimit: 4)
        let device = DeviceID(1)
        tracker.addDevice(device, geometry: DeviceGeometry(description: description))
        var assembler = FrameAssembler()
        var time: Int64 = 0
        var frame: UInt64 = 0
        var contacts: [ContactEvent] = []
        var events: [StrokeEvent] = []
        let codes: [UInt16] = [
            AbsCode.mtSlot, AbsCode.mtTrackingID, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtPressure,
            AbsCode.mtToolType, AbsCode.mtDistance, AbsCode.x, AbsCode.y,
        ]
        var i = 2
        while i + 6 <= bytes.count {
            let kind = bytes[i]
            let value = Int32(bitPattern: UInt32(bytes[i + 2]) | UInt32(bytes[i + 3]) << 8 | UInt32(bytes[i + 4]) << 16 | UInt32(bytes[i + 5]) << 24)
            let event: InputEvent
            switch kind % 8 {
            case 0: event = InputEvent(time: .zero, type: .syn, code: SynCode.report, value: 0)
            case 1: event = InputEvent(time: .zero, type: .syn, code: bytes[i + 1] & 1 == 0 ? SynCode.dropped : SynCode.mtReport, value: 0)
            case 2: event = InputEvent(time: .zero, type: .key, code: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolPen][Int(bytes[i + 1]) % 3], value: value & 3)
            case 3: event = InputEvent(time: .zero, type: .abs, code: UInt16(bytes[i + 1]) & 0x3f, value: value)
            default: event = InputEvent(time: .zero, type: .abs, code: codes[Int(bytes[i + 1]) % codes.count], value: value % 1100)
            }
            i += 6
            var e = event
            if e.type == .syn && e.code != SynCode.mtReport { time += 8_000 + Int64(kind >> 3) * 1_000 }
            e.time = Timestamp(microseconds: time)
            guard let input = assembler.feed(e) else { continue }
            if case .frame = input { frame += 1 }
            contacts.removeAll(keepingCapacity: true)
            decoder.process(input, into: &contacts)
            tracker.apply(contacts, device: device, frame: frame, into: &events)
        }
        return checkLifecycle(events, live: tracker.inProgress.values.map(\.id))
    }

    /// Every `began` is followed by exactly one `ended` or `cancelled` and nothing after it; no
    /// event names a stroke that did not begin; the live set at the end is the tracker's.
    static func checkLifecycle(_ events: [StrokeEvent], live: [StrokeID]) -> String? {
        var state: [UInt64: Bool] = [:]  // true: live, false: done
        for e in events {
            let id = e.stroke.rawValue
            // By name, so that event kinds that are not part of a stroke's life (hover) pass.
            switch e.kind.name {
            case "began":
                if state[id] != nil { return "stroke \(id) began twice" }
                state[id] = true
            case "moved":
                if state[id] != true { return "moved for stroke \(id), which is not live" }
            case "ended", "cancelled":
                if state[id] != true { return "\(e.kind.name) for stroke \(id), which is not live" }
                state[id] = false
            default:
                continue
            }
        }
        let expected = state.filter(\.value).map(\.key).sorted()
        let actual = live.map(\.rawValue).sorted()
        return expected == actual ? nil : "live strokes \(expected) but the tracker holds \(actual)"
    }

    static func checkRequest(_ bytes: [UInt8]) -> String? {
        let line = Substring(String(decoding: bytes, as: UTF8.self))
        let first = ClientRequest.parse(line)
        let second = ClientRequest.parse(line)
        return first == second ? nil : "the same line parsed two ways"
    }
}
