import GestureRecognizer
import InputCore
import MultitouchDecoder
import StrokeTracker

/// A 200 × 100 mm device at 10 units per mm (or without a resolution), fed hand-built frames.
struct Script {
    enum Touch {
        case down(UInt64, Double, Double)
        /// Already down when decoding started (`ContactFlags.adopted`).
        case adopted(UInt64, Double, Double)
        case move(UInt64, Double, Double)
        case up(UInt64, Double, Double)
        case cancel(UInt64)
    }

    static let device = DeviceID(1)
    var geometry: DeviceGeometry
    var recognizer: GestureRecognizer
    var ids: UInt64 = 0
    var out: [Gesture] = []
    var frame: UInt64 = 0
    /// The last position of each stroke (for `cancel`).
    var last: [UInt64: (Double, Double)] = [:]
    /// Strokes of a multitouch pen (`toolType` `MT_TOOL_PEN`); the others are fingers.
    var pens: Set<UInt64> = []

    init(kind: DeviceKind = .touchscreen, resolution: Bool = true, configuration: GestureConfiguration = .init()) {
        let r: Int32 = resolution ? 10 : 0
        let d = DeviceDescription(
            name: "test", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
            properties: kind == .touchscreen ? [InputProperty.direct] : [InputProperty.pointer, InputProperty.buttonpad],
            codes: [.key: [KeyCode.btnTouch]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 2000, resolution: r),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000, resolution: r),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ])
        geometry = DeviceGeometry(description: d)
        recognizer = GestureRecognizer(device: Script.device, geometry: geometry, kind: kind, configuration: configuration)
    }

    /// One frame at `ms` milliseconds; positions in millimetres. Returns the steps it produced.
    @discardableResult
    mutating func at(_ ms: Double, _ touches: Touch...) -> [Gesture] { at(ms, touches) }

    @discardableResult
    mutating func at(_ ms: Double, _ touches: [Touch]) -> [Gesture] {
        let before = out.count
        frame += 1
        let time = Timestamp(microseconds: Int64((ms * 1000).rounded()))
        var events: [StrokeEvent] = []
        for t in touches {
            switch t {
            case .down(let s, let x, let y): events.append(event(.began, s, x, y, time))
            case .adopted(let s, let x, let y): events.append(event(.began, s, x, y, time, flags: .adopted))
            case .move(let s, let x, let y): events.append(event(.moved, s, x, y, time))
            case .up(let s, let x, let y): events.append(event(.ended, s, x, y, time))
            case .cancel(let s):
                let (x, y) = last[s] ?? (0, 0)
                events.append(event(.cancelled(.palm), s, x, y, time))
            }
        }
        recognizer.process(events, time: time, ids: &ids, into: &out)
        return Array(out[before...])
    }

    /// Time passes to `ms` with no frame (the daemon's timer).
    @discardableResult
    mutating func advance(_ ms: Double) -> [Gesture] {
        let before = out.count
        recognizer.advance(to: Timestamp(microseconds: Int64((ms * 1000).rounded())), ids: &ids, into: &out)
        return Array(out[before...])
    }

    private mutating func event(
        _ kind: StrokeEvent.Kind, _ s: UInt64, _ x: Double, _ y: Double, _ time: Timestamp, flags: ContactFlags = []
    ) -> StrokeEvent {
        last[s] = (x, y)
        var sample = ContactSample(x: Int32((x * 10).rounded()), y: Int32((y * 10).rounded()))
        if pens.contains(s) {
            sample.toolType = ToolType.pen
            sample.known.insert(.toolType)
        }
        return StrokeEvent(
            kind: kind, stroke: StrokeID(rawValue: s), device: Script.device, frame: frame, slot: Int32(s % 10),
            trackingID: Int32(s), point: StrokePoint(time: time, sample: sample, geometry: geometry), flags: flags)
    }

    /// `kind phase` of each step, for compact expectations.
    var summary: [String] { out.map { "\($0.kind) \($0.phase)" } }
}

extension Array where Element == Gesture {
    var summary: [String] { map { "\($0.kind) \($0.phase)" } }
}
