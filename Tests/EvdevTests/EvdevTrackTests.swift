import InputCore
import Testing

@testable import Evdev

/// `EvdevDevice.track`: the daemon reads the node itself and hands every event to libevdev, which
/// must keep or drop it as `libevdev_next_event` would. Real libevdev, on a device with no node.
@Suite struct EvdevTrackTests {
    let screen = DeviceDescription(
        name: "track test", id: InputID(bustype: 3, vendor: 1, product: 2, version: 3),
        properties: [InputProperty.direct], codes: [.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 1000), AbsCode.y: AbsInfo(minimum: 0, maximum: 1000),
            AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1000), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1000),
        ])

    func e(_ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 1), type: type, code: code, value: value)
    }

    @Test func tracksLikeLibevdevReadingTheNode() throws {
        let device = try #require(EvdevDevice(unopened: screen))
        #expect(device.track(e(.abs, AbsCode.mtSlot, 1)))
        #expect(device.track(e(.abs, AbsCode.mtTrackingID, 5)))
        #expect(device.track(e(.abs, AbsCode.mtPositionX, 300)))
        #expect(device.track(e(.key, KeyCode.btnTouch, 1)))
        #expect(device.track(e(.syn, SynCode.report, 0)))
        // A tracking ID may only go from -1 to N and back: libevdev drops N to M and -1 to -1.
        #expect(!device.track(e(.abs, AbsCode.mtTrackingID, 6)))
        var (slots, current) = device.slotStates()
        #expect(current == 1)
        #expect(slots[1].trackingID == 5)
        #expect(slots[1].axes[AbsCode.mtPositionX] == 300)
        #expect(device.track(e(.abs, AbsCode.mtTrackingID, -1)))
        #expect(!device.track(e(.abs, AbsCode.mtTrackingID, -1)))
        (slots, _) = device.slotStates()
        #expect(slots[1].trackingID == -1)
        // Codes the device does not declare are dropped, of any type.
        #expect(!device.track(e(.abs, AbsCode.pressure, 10)))
        #expect(!device.track(e(.key, KeyCode.btnToolPen, 1)))
        #expect(!device.track(e(.msc, MscCode.serial, 10)))
    }

    @Test func eventsAreReadAsWholeInputEvents() {
        // Two records as read(2) gives them on 64-bit Linux: tv_sec, tv_usec, type, code, value.
        var bytes: [UInt8] = []
        func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        put(Int64(12)); put(Int64(345_678)); put(UInt16(3)); put(AbsCode.mtPositionX); put(Int32(-7))
        put(Int64(12)); put(Int64(345_679)); put(UInt16(0)); put(SynCode.report); put(Int32(0))
        bytes += [1, 2, 3]  // never from the kernel; a partial record is not an event
        var out: [InputEvent] = []
        bytes.withUnsafeBytes { EvdevDevice.events(in: $0, into: &out) }
        #expect(out == [
            InputEvent(time: Timestamp(microseconds: 12_345_678), type: .abs, code: AbsCode.mtPositionX, value: -7),
            InputEvent(time: Timestamp(microseconds: 12_345_679), type: .syn, code: SynCode.report, value: 0),
        ])
        #expect(EvdevDevice.eventSize == 24)
    }
}
