import InputCore
import MultitouchDecoder
import StrokeTracker

/// Devices described as data (litest style).
enum TestDevices {
    static func touchscreen(slots: Int32 = 10, initialSlot: Int32 = 0, toolType: Bool = true, resolution: Int32 = 10)
        -> DeviceDescription
    {
        var abs: [UInt16: AbsInfo] = [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            AbsCode.y: AbsInfo(minimum: 0, maximum: 500, resolution: resolution),
            AbsCode.mtSlot: AbsInfo(value: initialSlot, minimum: 0, maximum: slots - 1),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000, resolution: resolution),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 500, resolution: resolution),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255),
        ]
        if toolType { abs[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: 2) }
        return DeviceDescription(
            name: "test touchscreen", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]], absInfo: abs
        )
    }

    /// A clickpad (BTN_TOOL_FINGER + INPUT_PROP_BUTTONPAD): a touchpad, where touch-jump
    /// detection is on by default.
    static func touchpad(resolution: Int32 = 10) -> DeviceDescription {
        var d = touchscreen(resolution: resolution)
        d.name = "test touchpad"
        d.properties = [InputProperty.pointer, InputProperty.buttonpad]
        d.codes[.key] = [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnLeft]
        return d
    }

    static func singleTouch() -> DeviceDescription {
        DeviceDescription(
            name: "test single touch", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 100), AbsCode.y: AbsInfo(minimum: 0, maximum: 100)]
        )
    }

    /// A single-touch touchpad (touch jumps judged: 10 units/mm over 0-4000).
    static func singleTouchpad() -> DeviceDescription {
        DeviceDescription(
            name: "test single-touch pad", id: InputID(bustype: 0x11, vendor: 2, product: 7, version: 1),
            properties: [InputProperty.pointer, InputProperty.buttonpad],
            codes: [.key: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnLeft]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 4000, resolution: 10), AbsCode.y: AbsInfo(minimum: 0, maximum: 4000, resolution: 10)]
        )
    }

    /// Protocol A: MT positions without slots.
    static func protocolA(withSingleTouch: Bool) -> DeviceDescription {
        var abs: [UInt16: AbsInfo] = [
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100),
        ]
        if withSingleTouch {
            abs[AbsCode.x] = AbsInfo(minimum: 0, maximum: 100)
            abs[AbsCode.y] = AbsInfo(minimum: 0, maximum: 100)
        }
        return DeviceDescription(
            name: "test protocol A", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: [InputProperty.direct], codes: withSingleTouch ? [.key: [KeyCode.btnTouch]] : [:], absInfo: abs
        )
    }
}

/// Event shorthands; times are assigned by `Script`.
enum E {
    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: .zero, type: .abs, code: code, value: value)
    }
    static func slot(_ s: Int32) -> InputEvent { abs(AbsCode.mtSlot, s) }
    static func id(_ v: Int32) -> InputEvent { abs(AbsCode.mtTrackingID, v) }
    static func x(_ v: Int32) -> InputEvent { abs(AbsCode.mtPositionX, v) }
    static func y(_ v: Int32) -> InputEvent { abs(AbsCode.mtPositionY, v) }
    static func tool(_ v: Int32) -> InputEvent { abs(AbsCode.mtToolType, v) }
    static func key(_ code: UInt16, _ v: Int32) -> InputEvent { InputEvent(time: .zero, type: .key, code: code, value: v) }
    static let syn = InputEvent(time: .zero, type: .syn, code: SynCode.report, value: 0)
    static let dropped = InputEvent(time: .zero, type: .syn, code: SynCode.dropped, value: 0)
}

/// Runs frames through assembler, decoder and tracker, and renders the stroke events as short
/// lines: `began 1 s0 #5 (100,200)`, `ended 1 ...`, `cancelled(palm) 2 ...`; flags in brackets.
struct Script {
    var decoder: MultitouchDecoder
    var tracker = StrokeTracker(historyLimit: 4)
    var assembler = FrameAssembler()
    var frame: UInt64 = 0
    var time: Int64 = 0
    let device = DeviceID(1)
    var events: [StrokeEvent] = []
    /// Microseconds between frames.
    var frameInterval: Int64 = 10_000

    init(_ description: DeviceDescription) throws {
        decoder = try MultitouchDecoder(description: description)
        tracker.addDevice(device, geometry: DeviceGeometry(description: description))
    }

    /// Feeds events (each `E.syn` ends a frame, stamped `frameInterval` after the previous one) and returns
    /// the transcript of what they produced.
    @discardableResult
    mutating func feed(_ input: [InputEvent]) -> [String] {
        var produced: [StrokeEvent] = []
        for var e in input {
            if e.type == .syn { time += frameInterval }
            e.time = Timestamp(microseconds: time)
            guard let f = assembler.feed(e) else { continue }
            if case .frame = f { frame += 1 }
            var contacts: [ContactEvent] = []
            decoder.process(f, into: &contacts)
            tracker.apply(contacts, device: device, frame: frame, into: &produced)
        }
        events += produced
        return produced.map(Script.render)
    }

    /// Feeds one state-report frame (a libevdev resync or a seed) and returns its transcript.
    @discardableResult
    mutating func feed(_ input: [InputEvent], origin: FrameOrigin) -> [String] {
        time += 10_000
        let f = Frame(events: input.filter { $0.type != .syn }, time: Timestamp(microseconds: time))
        frame += 1
        var contacts: [ContactEvent] = []
        decoder.process(f, origin: origin, into: &contacts)
        var produced: [StrokeEvent] = []
        tracker.apply(contacts, device: device, frame: frame, into: &produced)
        events += produced
        return produced.map(Script.render)
    }

    static func render(_ e: StrokeEvent) -> String {
        if case .hover = e.kind {
            return "\(kindName(e.kind)) s\(e.slot) (\(e.point.x),\(e.point.y))" + penSuffix(e)
        }
        var s = "\(kindName(e.kind)) \(e.stroke) s\(e.slot) #\(e.trackingID.map(String.init) ?? "?") (\(e.point.x),\(e.point.y))"
        if e.flags.contains(.adopted) { s += " [adopted]" }
        if e.flags.contains(.semiMT) { s += " [semiMT]" }
        if e.flags.contains(.jump) { s += " [jump]" }
        return s + penSuffix(e)
    }

    /// ` pen`, ` eraser` … and the buttons held, for events of pen devices.
    static func penSuffix(_ e: StrokeEvent) -> String {
        guard e.point.toolType >= ToolType.pen && e.point.toolType != ToolType.palm else { return "" }
        var s = " " + (e.point.toolType == ToolType.pen ? "pen" : e.point.toolType == ToolType.eraser ? "eraser" : "tool\(e.point.toolType)")
        if !e.point.buttons.isEmpty { s += " " + e.point.buttons.names.joined(separator: "+") }
        return s
    }

    static func kindName(_ k: StrokeEvent.Kind) -> String {
        switch k {
        case .began: return "began"
        case .moved: return "moved"
        case .ended: return "ended"
        case .cancelled(let r): return "cancelled(\(r.rawValue))"
        case .hover(let phase): return "hover(\(phase.rawValue))"
        }
    }
}

extension TestDevices {
    /// A pen display (litest's Wacom Cintiq style): pen and eraser tools, BTN_TOUCH, two stylus
    /// buttons, pressure, distance and tilt in units per radian.
    static func penDisplay(btnTouch: Bool = true) -> DeviceDescription {
        var keys: Set<UInt16> = [KeyCode.btnToolPen, KeyCode.btnToolRubber, KeyCode.btnStylus, KeyCode.btnStylus2]
        if btnTouch { keys.insert(KeyCode.btnTouch) }
        return DeviceDescription(
            name: "test pen", id: InputID(bustype: 3, vendor: 0x56a, product: 1, version: 1),
            properties: [InputProperty.direct], codes: [.key: keys, .msc: [MscCode.serial]],
            absInfo: [
                AbsCode.x: AbsInfo(minimum: 0, maximum: 1000, resolution: 10),
                AbsCode.y: AbsInfo(minimum: 0, maximum: 500, resolution: 10),
                AbsCode.pressure: AbsInfo(minimum: 0, maximum: 1023),
                AbsCode.distance: AbsInfo(minimum: 0, maximum: 63),
                AbsCode.tiltX: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
                AbsCode.tiltY: AbsInfo(minimum: -64, maximum: 63, resolution: 57),
            ]
        )
    }
}

extension E {
    static func px(_ v: Int32) -> InputEvent { abs(AbsCode.x, v) }
    static func py(_ v: Int32) -> InputEvent { abs(AbsCode.y, v) }
    static func pressure(_ v: Int32) -> InputEvent { abs(AbsCode.pressure, v) }
    static func pen(_ v: Int32) -> InputEvent { key(KeyCode.btnToolPen, v) }
    static func rubber(_ v: Int32) -> InputEvent { key(KeyCode.btnToolRubber, v) }
    static func touch(_ v: Int32) -> InputEvent { key(KeyCode.btnTouch, v) }
}
