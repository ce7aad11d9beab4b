import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// A device description is not trusted either: too many slots are refused before anything is
/// allocated, and axes with min > max or no width decode without trapping.
@Suite struct DeclaredLimitsTests {
    @Test func moreSlotsThanLibevdevsLimitAreRefused() {
        #expect(throws: DecoderError.tooManySlots(deviceName: "test touchscreen", count: 2_147_483_647)) {
            try MultitouchDecoder(description: TestDevices.touchscreen(slots: .max))
        }
        #expect(throws: DecoderError.tooManySlots(deviceName: "test touchscreen", count: DeviceDescription.maxSlots + 1)) {
            try MultitouchDecoder(description: TestDevices.touchscreen(slots: Int32(DeviceDescription.maxSlots + 1)))
        }
    }

    /// A device's name comes from the device: its control characters are escaped in the message
    /// the daemon logs (found by an adversary: a name with ESC reached the terminal raw).
    @Test func aDeviceNameInAnErrorHasItsControlCharactersEscaped() {
        let message = DecoderError.notATouchDevice(deviceName: "pad\u{1b}]0;owned\u{7}").description
        #expect(message.hasPrefix("'pad\\u{1b}]0;owned\\u{7}' is not a touch device"), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func theLargestAllowedSlotCountDecodesItsLastSlot() throws {
        var s = try Script(TestDevices.touchscreen(slots: Int32(DeviceDescription.maxSlots)))
        #expect(s.feed([E.slot(255), E.id(7), E.x(10), E.y(20), E.syn]) == ["began 1 s255 #7 (10,20)"])
        #expect(s.feed([E.slot(256), E.id(8), E.x(10), E.y(20), E.syn]) == [], "a slot out of range is counted, not indexed")
    }

    @Test(arguments: [(Int32(1000), Int32(0)), (Int32(500), Int32(500))])
    func reversedOrZeroWidthAxesDecodeAndNormaliseToZero(minimum: Int32, maximum: Int32) throws {
        var d = TestDevices.touchscreen()
        d.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: minimum, maximum: maximum, resolution: 10)
        var s = try Script(d)
        #expect(s.feed([E.slot(0), E.id(1), E.x(300), E.y(20), E.syn]) == ["began 1 s0 #1 (300,20)"])
        #expect(s.feed([E.x(400), E.syn]) == ["moved 1 s0 #1 (400,20)"])
        #expect(s.feed([E.id(-1), E.syn]) == ["ended 1 s0 #1 (400,20)"])
        let geometry = DeviceGeometry(description: d)
        #expect(geometry.normalized(x: 400) == 0, "no range to normalise across")
        #expect(geometry.normalized(x: 400).isFinite)
    }
}
