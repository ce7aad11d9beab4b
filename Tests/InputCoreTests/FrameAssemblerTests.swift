import InputCore
import Testing

@Suite struct FrameAssemblerTests {
    func ev(_ t: Int64, _ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value)
    }

    @Test func framesEndAtSynReportAndCarryItsTime() {
        var a = FrameAssembler()
        #expect(a.feed(ev(1, .abs, AbsCode.mtPositionX, 5)) == nil)
        let out = a.feed(ev(2, .syn, SynCode.report, 0))
        #expect(out == .frame(Frame(events: [ev(1, .abs, AbsCode.mtPositionX, 5)], time: Timestamp(microseconds: 2))))
        #expect(a.unterminatedEvents.isEmpty)
    }

    @Test func synDroppedDiscardsThePartialFrameAndEverythingUpToTheNextReport() {
        var a = FrameAssembler()
        _ = a.feed(ev(1, .abs, AbsCode.mtPositionX, 5))
        #expect(a.feed(ev(2, .syn, SynCode.dropped, 0)) == .dropped(Timestamp(microseconds: 2)))
        #expect(a.feed(ev(3, .abs, AbsCode.mtPositionX, 6)) == nil)
        #expect(a.feed(ev(4, .syn, SynCode.report, 0)) == nil, "the report that closes the dropped frame is discarded too")
        #expect(a.feed(ev(5, .abs, AbsCode.mtPositionY, 7)) == nil)
        #expect(a.feed(ev(6, .syn, SynCode.report, 0)) == .frame(Frame(events: [ev(5, .abs, AbsCode.mtPositionY, 7)], time: Timestamp(microseconds: 6))))
    }

    @Test func unterminatedEventsAreKept() {
        var a = FrameAssembler()
        _ = a.feed(ev(1, .abs, AbsCode.mtPositionX, 5))
        #expect(a.unterminatedEvents.count == 1)
    }

    @Test func timestampPrintsSecondsAndMicroseconds() {
        #expect(Timestamp(seconds: 7094, microseconds: 666_531).description == "7094.666531")
        #expect(Timestamp(microseconds: 1).description == "0.000001")
    }
}

@Suite struct DeviceKindTests {
    func device(props: Set<UInt16>, keys: Set<UInt16>, abs: [UInt16]) -> DeviceDescription {
        DeviceDescription(
            name: "d", id: InputID(bustype: 0, vendor: 0, product: 0, version: 0), properties: props, codes: [.key: keys],
            absInfo: Dictionary(uniqueKeysWithValues: abs.map { ($0, AbsInfo(minimum: 0, maximum: $0 == AbsCode.mtSlot ? 4 : 100)) })
        )
    }

    let mt: [UInt16] = [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID]

    @Test func classification() {
        #expect(device(props: [InputProperty.direct], keys: [], abs: mt).kind == .touchscreen)
        #expect(device(props: [], keys: [KeyCode.btnTouch], abs: mt).kind == .touchscreen, "pre-properties touchscreen")
        #expect(device(props: [InputProperty.pointer, InputProperty.buttonpad], keys: [KeyCode.btnToolFinger, KeyCode.btnTouch], abs: mt).kind == .touchpad)
        #expect(device(props: [], keys: [KeyCode.btnToolFinger, KeyCode.btnLeft], abs: mt).kind == .touchpad)
        #expect(device(props: [InputProperty.pointer], keys: [KeyCode.btnToolFinger, KeyCode.btnTouch], abs: mt).kind == .indirect)
        #expect(device(props: [], keys: [], abs: [AbsCode.x]).kind == .other)
    }

    @Test func touchProtocol() {
        #expect(device(props: [], keys: [], abs: mt).touchProtocol == .slots)
        #expect(device(props: [], keys: [KeyCode.btnTouch], abs: [AbsCode.x, AbsCode.y]).touchProtocol == .singleTouch)
        #expect(device(props: [], keys: [], abs: [AbsCode.mtPositionX, AbsCode.mtPositionY]).touchProtocol == .anonymous)
        // libevdev's "fake MT": ABS_RESERVED set means the ABS_MT_* bits are not multitouch.
        let fake = device(props: [], keys: [KeyCode.btnTouch], abs: mt + [AbsCode.reserved])
        #expect(fake.slotCount == nil)
        #expect(fake.touchProtocol == .singleTouch)
    }
}
