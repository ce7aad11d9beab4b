import InputCore
import Testing

@testable import StrokeDaemon

/// How the live reader cuts what libevdev returns into frames (the devices themselves are
/// exercised in the QEMU end-to-end tests: this machine has no /dev/input).
@Suite struct EvdevSourceFramingTests {
    func e(_ t: Int64, _ type: EventType, _ code: UInt16, _ v: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: v)
    }

    @Test func syncEventsFormResyncFramesAndVoidTheInterruptedFrame() {
        var assembler = FrameAssembler()
        var sync: [InputEvent] = []
        let read: [(event: InputEvent, sync: Bool)] = [
            (e(1, .abs, AbsCode.mtPositionX, 10), false), (e(1, .syn, SynCode.report, 0), false),
            (e(2, .abs, AbsCode.mtPositionX, 11), false),  // cut off by the drop
            (e(5, .abs, AbsCode.mtSlot, 0), true), (e(5, .abs, AbsCode.mtTrackingID, -1), true),
            (e(5, .syn, SynCode.report, 0), true),
            (e(5, .abs, AbsCode.mtSlot, 1), true), (e(5, .abs, AbsCode.mtTrackingID, 7), true),
            (e(5, .syn, SynCode.report, 0), true),
            (e(6, .abs, AbsCode.mtPositionY, 3), false), (e(6, .syn, SynCode.report, 0), false),
            (e(7, .abs, AbsCode.mtPositionY, 4), false),  // incomplete: kept for the next read
        ]
        let frames = EvdevSource.frames(from: read, assembler: &assembler, syncEvents: &sync)
        #expect(frames.map { $0.1 } == [false, true, true, false])
        #expect(frames.map { $0.0.events.count } == [1, 2, 2, 1])  // SYN_REPORT itself is not a frame event
        #expect(frames[1].0.events.map(\.value) == [0, -1])
        #expect(frames[3].0.events.first?.value == 3)
        let rest = EvdevSource.frames(from: [(e(7, .syn, SynCode.report, 0), false)], assembler: &assembler, syncEvents: &sync)
        #expect(rest.count == 1 && rest[0].0.events.first?.value == 4)
    }
}
