import Foundation
import InputCore
import StrokeRecording
import Testing

@testable import strokes_e2e

/// `KernelInputFilter` is the kernel-test driver's model of what `input_handle_event()` lets
/// through to evdev readers. The guest checks it against a real kernel frame by frame; these
/// pin the same rules on the host, case by case, and the frame counts the kernel gave for real
/// recordings.
@Suite struct KernelInputFilterTests {
    static let t = Timestamp(microseconds: 1)
    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(time: t, type: .abs, code: code, value: value) }
    static func key(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(time: t, type: .key, code: code, value: value) }
    static let report = InputEvent(time: t, type: .syn, code: SynCode.report, value: 0)

    /// A two-slot touchscreen with BTN_TOUCH; the header says the current slot is 1.
    static let device = DeviceDescription(
        name: "test", id: InputID(bustype: 3, vendor: 1, product: 2, version: 0), properties: [],
        codes: [.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.mtSlot: AbsInfo(value: 1, minimum: 0, maximum: 1),
            AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 100),
            AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 100),
            AbsCode.x: AbsInfo(minimum: 0, maximum: 100),
        ]
    )

    static func filter(_ events: [InputEvent]) -> [String] {
        KernelInputFilter.apply(events, description: device).map { "\($0.type.rawValue):\($0.code):\($0.value)" }
    }

    @Test func repeatedValuesAndTheirEmptyFramesVanish() {
        let out = Self.filter([
            Self.abs(AbsCode.mtSlot, 0), Self.abs(AbsCode.mtTrackingID, 5), Self.abs(AbsCode.mtPositionX, 10), Self.key(KeyCode.btnTouch, 1),
            Self.report,
            // Same values again: nothing passes, and the empty frame is not reported.
            Self.abs(AbsCode.mtPositionX, 10), Self.key(KeyCode.btnTouch, 1), Self.report,
            Self.abs(AbsCode.mtPositionX, 11), Self.report,
        ])
        #expect(out == [
            "3:\(AbsCode.mtSlot):0", "3:\(AbsCode.mtTrackingID):5", "3:\(AbsCode.mtPositionX):10", "1:\(KeyCode.btnTouch):1", "0:0:0",
            "3:\(AbsCode.mtPositionX):11", "0:0:0",
        ])
    }

    /// The kernel stages slot changes: ABS_MT_SLOT goes out only before a value it passes, and
    /// not at all when the slot is the one readers were last told about (here the header's 1).
    @Test func slotChangesAreStagedUntilAValuePasses() {
        let out = Self.filter([
            Self.abs(AbsCode.mtSlot, 1), Self.abs(AbsCode.mtTrackingID, 7), Self.report,
            Self.abs(AbsCode.mtSlot, 0), Self.abs(AbsCode.mtTrackingID, -1),  // slot 0 is already -1: dropped
            Self.abs(AbsCode.mtSlot, 1), Self.abs(AbsCode.mtPositionX, 3), Self.report,
        ])
        #expect(out == ["3:\(AbsCode.mtTrackingID):7", "0:0:0", "3:\(AbsCode.mtPositionX):3", "0:0:0"])
    }

    @Test func keyRepeatsPassAndUnsupportedCodesDoNot() {
        let out = Self.filter([
            Self.key(KeyCode.btnTouch, 2), Self.key(KeyCode.btnLeft, 1), Self.abs(AbsCode.y, 4), Self.report,
            Self.key(KeyCode.btnTouch, 0), Self.report,  // already up
        ])
        #expect(out == ["1:\(KeyCode.btnTouch):2", "0:0:0"])
    }

    /// Frames that the kernel left out of real recordings when the guest replayed them (the
    /// driver checks every frame number against the kernel's): 4 of 01's 2025, 2 of 11's 82.
    @Test(arguments: [("01-wacom-dth2242-touchscreen-10finger.evemu", 2021), ("11-synaptics-ps2-clickpad-2finger-vert-scroll.evemu", 80)])
    func realRecordingsLoseTheFramesTheKernelDrops(_ name: String, frames: Int) throws {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        let device = try RecordingReader.read(path: dir.appendingPathComponent("Tests/ReplayTests/Fixtures/" + name).path).devices[0]
        let out = KernelInputFilter.apply(device.events, description: device.description)
        #expect(out.filter { $0.type == .syn && $0.code == SynCode.report }.count == frames)
    }
}
