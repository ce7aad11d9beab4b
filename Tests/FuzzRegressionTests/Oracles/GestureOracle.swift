import GestureRecognizer
import InputCore
import MultitouchDecoder
import StrokeTracker

extension FuzzOracles {
    /// `gestures`: any sequence of fingers down, moving, up and cancelled (four bytes a frame:
    /// what, which finger, where or how far, how much later), with time passing between frames,
    /// through a touchscreen's gesture recogniser; then every finger left is cancelled, as when
    /// the device goes away. Every `begin` gets exactly one `end` or `cancel`, with only `update`s
    /// of its kind between; ids are handed out in order and never reused; time never goes back;
    /// a tap has 1 to `maxFingers` fingers; nothing is left waiting for time at the end.
    static func checkGestures(_ bytes: [UInt8]) -> String? {
        let description = DeviceDescription(
            name: "fuzz", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3), properties: [InputProperty.direct],
            codes: [.key: [KeyCode.btnTouch]],
            absInfo: [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 2550, resolution: bytes.first.map { Int32($0 % 3) * 5 } ?? 10),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 2550, resolution: 10),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            ])
        let geometry = DeviceGeometry(description: description)
        let device = DeviceID(1)
        var recognizer = GestureRecognizer(device: device, geometry: geometry, kind: .touchscreen)
        var ids: UInt64 = 0
        var out: [Gesture] = []
        var down: [(id: UInt64, x: Int32, y: Int32)] = []
        var next: UInt64 = 1
        var time: Int64 = 0
        var frame: UInt64 = 0
        func event(_ kind: StrokeEvent.Kind, _ f: (id: UInt64, x: Int32, y: Int32)) -> StrokeEvent {
            StrokeEvent(
                kind: kind, stroke: StrokeID(rawValue: f.id), device: device, frame: frame, slot: Int32(f.id % 10),
                trackingID: Int32(f.id & 0xffff),
                point: StrokePoint(time: Timestamp(microseconds: time), sample: ContactSample(x: f.x, y: f.y), geometry: geometry),
                flags: [])
        }
        var i = 1
        while i + 4 <= bytes.count {
            let (op, which, amount, later) = (bytes[i], Int(bytes[i + 1]), Int32(bytes[i + 2]), Int64(bytes[i + 3]))
            i += 4
            time += later * 4_000
            if op % 9 == 8 {
                recognizer.advance(to: Timestamp(microseconds: time), ids: &ids, into: &out)
                continue
            }
            frame += 1
            var events: [StrokeEvent] = []
            switch op % 9 {
            case 0, 1:
                guard down.count < 8 else { break }
                down.append((next, amount * 10, Int32(which) * 10))
                events.append(event(.began, down[down.count - 1]))
                next += 1
            case 2, 3, 4, 5:
                for k in down.indices where k % 2 == Int(op) % 2 || down.count == 1 {
                    down[k].x += (amount - 128) / 4
                    down[k].y += Int32(which) - 128
                    events.append(event(.moved, down[k]))
                }
            case 6:
                guard !down.isEmpty else { break }
                events.append(event(.ended, down.remove(at: which % down.count)))
            case 7:
                guard !down.isEmpty else { break }
                events.append(event(.cancelled(.palm), down.remove(at: which % down.count)))
            default:
                break
            }
            recognizer.process(events, time: Timestamp(microseconds: time), ids: &ids, into: &out)
        }
        frame += 1
        time += 1
        let gone = down.map { event(.cancelled(.deviceRemoved), $0) }
        recognizer.process(gone, time: Timestamp(microseconds: time), ids: &ids, into: &out)
        if recognizer.deadline != nil { return "a deadline is left with no finger down" }
        return checkGestureSteps(out, maxFingers: recognizer.configuration.maxFingers)
    }

    static func checkGestureSteps(_ out: [Gesture], maxFingers: Int) -> String? {
        var open: [UInt64: Gesture.Kind] = [:]
        var lastID: UInt64 = 0
        var lastTime = Int64.min
        for g in out {
            if g.time.microseconds < lastTime { return "gesture \(g.id) goes back in time" }
            lastTime = g.time.microseconds
            switch g.phase {
            case .begin:
                if open[g.id] != nil { return "gesture \(g.id) begins twice" }
                if g.id <= lastID { return "gesture id \(g.id) after \(lastID)" }
                lastID = g.id
                open[g.id] = g.kind
            case .end where open[g.id] == nil:
                // A discrete gesture: one step.
                if g.kind != .tap && g.kind != .doubleTap { return "\(g.kind) \(g.id) ends unbegun" }
                if g.id <= lastID { return "gesture id \(g.id) after \(lastID)" }
                lastID = g.id
                if g.kind == .tap && !(1...maxFingers).contains(g.fingers) { return "a tap of \(g.fingers) fingers" }
            case .update:
                if open[g.id] != g.kind || g.kind == .hold { return "update of \(g.kind) \(g.id), which is not under way" }
            case .end, .cancel:
                if open[g.id] != g.kind { return "\(g.phase) of \(g.kind) \(g.id), which is not under way" }
                open[g.id] = nil
            }
        }
        return open.isEmpty ? nil : "gestures \(open.keys.sorted()) never end"
    }
}
