import Evdev
import Foundation
import InputCore
import StrokeProtocol

/// Touch arbitration between a pen and its touch sibling, and a hovering multitouch contact, on
/// uinput devices the daemon reads as live devices (docs/decoder.md, "Touch arbitration" and
/// "Hovering contacts").
extension Scenarios {
    /// Writes one frame and waits until the daemon has decoded it (`stats`), so that frames of two
    /// devices reach the daemon in the order they are written here.
    private func step(_ device: UinputDevice, _ frame: [InputEvent]) throws {
        let before = try client.framesProcessed()
        try device.writeFrame(frame)
        try client.waitForFrames(1, after: before)
    }

    /// The `phys` and `uniq` of a live node, from sysfs (what `DeviceGroup` reads) and from
    /// `EVIOCGPHYS`/`EVIOCGUNIQ`.
    private func physAndUniq(_ node: String) throws -> (sysfs: String, ioctl: String, uniq: String) {
        let name = (node as NSString).lastPathComponent
        let sysfs = try String(contentsOfFile: "/sys/class/input/\(name)/device/phys", encoding: .utf8)
        let opened = try EvdevDevice(path: node)
        return (sysfs.trimmingCharacters(in: .whitespacesAndNewlines), opened.phys, opened.uniq)
    }

    /// A finger stroke on the touch device is cancelled (`pen`) when the pen of the same hardware
    /// (same bus, vendor and `phys` up to its last '/') comes near; a touch that lands while the
    /// pen is near is never published, nor are the touches down then after the pen leaves; a touch
    /// after they lift is a stroke again. The same pen with another `phys` parent is another
    /// hardware and cancels nothing.
    func touchArbitration(touch touchFile: String, pen penFile: String) throws -> String {
        let touchDescription = try recording(touchFile).devices[0].description
        let penDescription = try recording(penFile).devices[0].description
        try check(
            touchDescription.id.bustype == penDescription.id.bustype && touchDescription.id.vendor == penDescription.id.vendor,
            "\(touchFile) and \(penFile) are not of one bus and vendor")
        // Two interfaces of one USB device, as the DTH2242's pen and fingers are.
        let touchPhys = "usb-0000:00:14.0-4/input1"
        let penPhys = "usb-0000:00:14.0-4/input0"
        let penIn = [ev(.abs, AbsCode.x, 30000), ev(.abs, AbsCode.y, 20000), ev(.abs, AbsCode.distance, 40),
                     ev(.key, KeyCode.btnToolPen, 1)]
        var mark = client.count
        let t = try UinputDevice(description: touchDescription, phys: touchPhys)
        let (touchID, touchNode) = try client.deviceAdded(name: touchDescription.name, after: mark)

        // The control: the same pen on another USB port is another hardware, and leaves the finger alone.
        mark = client.count
        let strangerPhys = "usb-0000:00:14.0-5/input0"
        let stranger = try UinputDevice(description: penDescription, phys: strangerPhys)
        let (strangerID, _) = try client.deviceAdded(name: penDescription.name, after: mark)
        try step(t, down(0, 590, 500, 500) + touch(true))
        try step(stranger, penIn)
        try step(t, move(0, 600))
        try step(stranger, [ev(.key, KeyCode.btnToolPen, 0)])
        try step(t, up(0) + touch(false))
        stranger.destroy()
        try client.deviceRemoved(strangerID)

        mark = client.count
        let p = try UinputDevice(description: penDescription, phys: penPhys)
        let (penID, penNode) = try client.deviceAdded(name: penDescription.name, after: mark)
        for (node, phys) in [(touchNode, touchPhys), (penNode, penPhys)] {
            let got = try physAndUniq(node)
            try check(
                got.sysfs == phys && got.ioctl == phys && got.uniq.isEmpty,
                "\(node): phys \(phys) set through uinput, sysfs says \"\(got.sysfs)\", EVIOCGPHYS \"\(got.ioctl)\", uniq \"\(got.uniq)\"")
        }

        try step(t, down(0, 600, 1000, 1000) + touch(true))  // A: began
        try step(t, move(0, 1100))  // A: moved
        try step(p, penIn)  // A: cancelled(pen)
        try step(t, move(0, 1200))  // A, cancelled: nothing
        try step(t, down(1, 601, 2000, 2000))  // B lands while the pen is near: nothing
        try step(t, move(1, 2100))
        try step(p, [ev(.abs, AbsCode.x, 30100)])  // the pen hovers on
        try step(p, [ev(.key, KeyCode.btnToolPen, 0)])  // and leaves
        try step(t, move(1, 2200))  // B is still suppressed until it lifts
        try step(t, up(0) + up(1) + touch(false))
        try step(t, down(0, 602, 3000, 3000) + touch(true))  // C: a stroke again
        try step(t, move(0, 3100))
        try step(t, up(0) + touch(false))
        t.destroy()
        p.destroy()
        try client.deviceRemoved(touchID)
        try client.deviceRemoved(penID)

        let got = client.strokeEvents(device: touchID)
        try checkLifecycles(got, what: "touch arbitration")
        let summary = got.map { "\($0.type) \($0.trackingId ?? -1)" }
        let want = ["began 590", "moved 590", "ended 590",
                    "began 600", "moved 600", "cancelled 600", "began 602", "moved 602", "ended 602"]
        try check(summary == want, "touch device: expected \(want), received \(got.map(\.line))")
        try check(got[5].event?.reason == .pen, "A was cancelled for another reason: \(got[5].line)")
        try check(got[5].stroke == got[3].stroke, "the cancel is not A's: \(got[5].line)")
        try check(got[4].x == 1100 && got[7].x == 3100, "positions: \(got.map(\.line))")
        for pen in [strangerID, penID] {
            let penStrokes = client.strokeEvents(device: pen)
            try check(penStrokes.isEmpty, "the hovering pen \(pen) made strokes: \(penStrokes.map(\.line))")
        }
        return "devices \(touchID) (\(touchPhys)) and \(penID) (\(penPhys)) grouped by phys: finger A cancelled(pen) "
            + "when the pen came near, B (landed under the pen) never published, C after the lift began, moved, ended; "
            + "the same pen at \(strangerPhys) (device \(strangerID)) left a finger alone"
    }

    /// A contact on a device that declares `ABS_MT_DISTANCE` hovers, touches, rises and lifts: a
    /// client subscribed to `hover` gets the hover events around exactly one stroke, a default
    /// client only the stroke; both as `strokes replay` gives them for the same frames.
    func hoveringContact(_ file: String) throws -> String {
        let description = try recording(file).devices[0].description
        try check(description.absInfo[AbsCode.mtDistance] != nil, "\(file) does not declare ABS_MT_DISTANCE")
        let distance = { (d: Int32) in self.ev(.abs, AbsCode.mtDistance, d) }
        let frames: [[InputEvent]] = [
            down(0, 700, 100, 100) + [distance(1)],  // hovers: proximityIn
            move(0, 110),  // hover motion
            move(0, 120) + [distance(0)] + touch(true),  // touches: began
            move(0, 130),  // moved
            move(0, 140) + [distance(1)] + touch(false),  // rises: ended, hovers again
            move(0, 150),  // hover motion
            up(0),  // lifts: proximityOut
        ]
        var events: [InputEvent] = []
        for (i, frame) in frames.enumerated() {
            let time = Timestamp(microseconds: Int64(i + 1) * 10_000)
            for e in frame + [ev(.syn, SynCode.report, 0)] {
                events.append(InputEvent(time: time, type: e.type, code: e.code, value: e.value))
            }
        }
        let withHover = try Expectation(description: description, events: events, hover: true)
        let plain = try Expectation(description: description, events: events)
        let all: [Request.StreamType] = [.began, .moved, .ended, .cancelled, .deviceAdded, .deviceRemoved, .hover]
        let hoverClient = try Subscriber(path: daemon.socket, events: all)
        defer { hoverClient.close() }
        let mark = client.count
        let hoverMark = hoverClient.count
        let u = try UinputDevice(description: description)
        let (device, _) = try client.deviceAdded(name: description.name, after: mark)
        let (hoverDevice, _) = try hoverClient.deviceAdded(name: description.name, after: hoverMark)
        try check(device == hoverDevice, "the two clients were told different device ids")
        for frame in frames { try step(u, frame) }
        u.destroy()
        try client.deviceRemoved(device)
        try hoverClient.deviceRemoved(device)

        let hovered = hoverClient.all.filter { ($0.isStroke || $0.type == "hover") && $0.device == device }
        try compare(expected: withHover.lines, actual: hovered.map(\.line), what: "hover subscriber")
        let phases = hovered.filter { $0.type == "hover" }.map { $0.hover?.phase.rawValue ?? "?" }
        try check(phases.first == "proximityIn" && phases.last == "proximityOut" && phases.dropFirst().dropLast().allSatisfy { $0 == "motion" },
                  "hover phases: \(phases)")
        let strokes = hovered.filter(\.isStroke)
        try check(strokes.first?.type == "began" && strokes.last?.type == "ended" && strokes.filter { $0.type == "began" }.count == 1,
                  "expected exactly one stroke, received \(strokes.map(\.line))")
        try checkLifecycles(strokes, what: "hover subscriber")
        let plainGot = client.all.filter { $0.device == device && ($0.isStroke || $0.type == "hover") }
        try compare(expected: plain.lines, actual: plainGot.map(\.line), what: "default subscriber")
        try check(plainGot.allSatisfy(\.isStroke), "the default subscriber received hover")
        return "hover subscriber: \(phases.count) hover events (\(phases.joined(separator: ", "))) around one stroke of "
            + "\(strokes.count) events; default subscriber: the \(plainGot.count) stroke events only; both identical to strokes replay"
    }
}
