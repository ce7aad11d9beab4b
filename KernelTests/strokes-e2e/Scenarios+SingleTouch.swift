import Evdev
import Foundation
import InputCore
import StrokeProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A single-touch device's `BTN_TOUCH`, read when the daemon opens it (docs/decoder.md, "Devices
/// without slots"): with the key up, motion is a tool hovering and no contact; with it down, the
/// touch is adopted at once, at the position the kernel holds.
extension Scenarios {
    private var singleTouch: DeviceDescription {
        DeviceDescription(
            name: "strokes-e2e single-touch", id: InputID(bustype: 3, vendor: 0x1d6b, product: 0x0104, version: 1),
            properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 4095), AbsCode.y: AbsInfo(minimum: 0, maximum: 4095)])
    }

    private func at(_ x: Int32, _ y: Int32? = nil) -> [InputEvent] {
        [ev(.abs, AbsCode.x, x)] + (y.map { [ev(.abs, AbsCode.y, $0)] } ?? [])
    }

    /// Writes `frames` to `uinput` (its daemon id `device`), waits for its touch's end, removes it,
    /// and returns the stroke messages the device gave since `mark`.
    private func strokes(of uinput: UinputDevice, _ device: Int64, since mark: Int, after frames: [[InputEvent]]) throws -> [Received] {
        for frame in frames { try uinput.writeFrame(frame) }
        try client.waitFor("the touch's end", timeout: 30) { $0.contains { $0.type == "ended" && $0.device == device } }
        uinput.destroy()
        try client.deviceRemoved(device)
        return client.all.dropFirst(mark).filter { $0.device == device && $0.isStroke }
    }

    func singleTouchKeyState() throws -> String {
        let screen = singleTouch
        // Opened with the key up: the motion before the press is hover, the press an ordinary touch.
        var mark = client.count
        let up = try UinputDevice(description: screen)
        let (first, _) = try client.deviceAdded(name: screen.name, after: mark)
        let hovered = try strokes(of: up, first, since: mark,
                                  after: [at(100, 100), at(200), at(300) + touch(true), at(400), touch(false)])
        try check(
            hovered.map(\.type) == ["began", "moved", "ended"] && hovered[0].x == 300
                && hovered[0].event?.flags?.contains(.adopted) != true,
            "key up at open: expected one touch from the press at x 300, got \(hovered.map(\.line))")

        // Opened with the key down (the daemon stopped while the device was made and touched):
        // adopted at once where the kernel says the finger is.
        mark = client.count
        let down = try deviceMadeWhileStopped(screen, frames: [at(500, 600) + touch(true)])
        let (second, _) = try client.deviceAdded(name: screen.name, after: mark)
        let held = try strokes(of: down, second, since: mark, after: [at(510), touch(false)])
        try check(
            held.map(\.type) == ["began", "moved", "ended"] && held[0].x == 500 && held[0].event?.point.y == 600
                && held[0].event?.flags?.contains(.adopted) == true && held[1].x == 510,
            "key down at open: expected a touch adopted at (500, 600), got \(held.map(\.line))")
        return "key up at open: hover motion published nothing, the press began at x 300; "
            + "key down at open: adopted at (500, 600), moved, ended"
    }
}
