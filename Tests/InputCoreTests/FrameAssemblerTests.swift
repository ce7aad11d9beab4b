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
        // Slots without MT positions could place no contact: the single-touch axes decide (an
        // adversary's finding: every touch was lost, silently); without them, no touch device.
        let positionless = device(props: [], keys: [KeyCode.btnTouch], abs: [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtTrackingID])
        #expect(positionless.slotCount != nil)
        #expect(positionless.touchProtocol == .singleTouch)
        #expect(device(props: [], keys: [], abs: [AbsCode.mtSlot, AbsCode.mtTrackingID]).touchProtocol == .none)
    }
}

/// `feed(_:_:)` (a buffer of events, frames handed out in place) against `feed(_:)` (one event at
/// a time): the same frame inputs, in the same order, however the events are split into reads.
@Suite struct FrameAssemblerBufferTests {
    enum Input: Equatable {
        case frame([InputEvent], Timestamp)
        case dropped(Timestamp)
    }

    /// A stream with frames, empty frames, `SYN_DROPPED` (also right before a report, and twice in a
    /// row), other `SYN` codes, and an unterminated tail.
    static func stream(seed: UInt64, count: Int) -> [InputEvent] {
        var state = seed
        func next(_ n: UInt64) -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (state >> 33) % n
        }
        return (0..<count).map { i in
            let t = Timestamp(microseconds: Int64(i))
            switch next(10) {
            case 0, 1: return InputEvent(time: t, type: .syn, code: SynCode.report, value: 0)
            case 2: return InputEvent(time: t, type: .syn, code: next(2) == 0 ? SynCode.dropped : SynCode.mtReport, value: 0)
            default: return InputEvent(time: t, type: .abs, code: AbsCode.mtPositionX, value: Int32(next(1000)))
            }
        }
    }

    static func oneByOne(_ events: [InputEvent]) -> (inputs: [Input], tail: [InputEvent]) {
        var a = FrameAssembler()
        var inputs: [Input] = []
        for e in events {
            switch a.feed(e) {
            case .frame(let f)?: inputs.append(.frame(f.events, f.time))
            case .dropped(let t)?: inputs.append(.dropped(t))
            case nil: break
            }
        }
        return (inputs, a.unterminatedEvents)
    }

    static func inReads(_ events: [InputEvent], sizes: (Int) -> Int) -> (inputs: [Input], tail: [InputEvent]) {
        var a = FrameAssembler()
        var inputs: [Input] = []
        events.withUnsafeBufferPointer { all in
            var offset = 0, n = 0
            while offset < all.count {
                let size = min(max(sizes(n), 0), all.count - offset)
                n += 1
                a.feed(UnsafeBufferPointer(rebasing: all[offset..<offset + size])) { input in
                    switch input {
                    case .frame(let f): inputs.append(.frame(Array(f.events), f.time))
                    case .dropped(let t): inputs.append(.dropped(t))
                    }
                }
                offset += size
            }
        }
        return (inputs, a.unterminatedEvents)
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1000])
    func everyReadSizeGivesTheSameInputs(size: Int) {
        for seed: UInt64 in 1...20 {
            let events = Self.stream(seed: seed, count: 300)
            let expected = Self.oneByOne(events)
            let got = Self.inReads(events) { _ in size }
            #expect(got.inputs == expected.inputs, "seed \(seed), reads of \(size)")
            #expect(got.tail == expected.tail, "seed \(seed), reads of \(size)")
        }
    }

    @Test func emptyAndUnevenReadsGiveTheSameInputs() {
        let events = Self.stream(seed: 99, count: 500)
        let expected = Self.oneByOne(events)
        let got = Self.inReads(events) { n in [0, 5, 1, 0, 13, 2][n % 6] }
        #expect(got.inputs == expected.inputs)
        #expect(got.tail == expected.tail)
    }

    @Test func aFrameSplitBetweenReadsIsAssembled() {
        func ev(_ t: Int64, _ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value)
        }
        let x = ev(1, .abs, AbsCode.mtPositionX, 5), y = ev(2, .abs, AbsCode.mtPositionY, 6)
        var a = FrameAssembler()
        var inputs: [Input] = []
        let record: (FrameViewInput) -> Void = { input in
            if case .frame(let f) = input { inputs.append(.frame(Array(f.events), f.time)) }
        }
        [x].withUnsafeBufferPointer { a.feed($0, record) }
        #expect(inputs.isEmpty && a.unterminatedEvents == [x])
        [y, ev(3, .syn, SynCode.report, 0)].withUnsafeBufferPointer { a.feed($0, record) }
        #expect(inputs == [.frame([x, y], Timestamp(microseconds: 3))])
        #expect(a.unterminatedEvents.isEmpty)
    }
}
