import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// A pen and a touchscreen of one hardware (docs/decoder.md, "Touch arbitration").
@Suite struct TouchArbitrationTests {
    /// Two decoders feeding one tracker: device 1 the touchscreen, device 2 its pen.
    struct Pair {
        var touch: Script
        var pen: Script
        var tracker = StrokeTracker(historyLimit: 8)
        var out: [String] = []

        init(arbitration: Bool = true) throws {
            touch = try Script(TestDevices.touchscreen())
            pen = try Script(TestDevices.penDisplay())
            tracker.addDevice(DeviceID(1), geometry: DeviceGeometry(description: TestDevices.touchscreen()))
            tracker.addDevice(DeviceID(2), geometry: DeviceGeometry(description: TestDevices.penDisplay()))
            tracker.setGroup(DeviceID(1), group: 1, arbitration: arbitration)
            tracker.setGroup(DeviceID(2), group: 1)
        }

        mutating func feed(_ device: Int, _ input: [InputEvent]) -> [String] {
            var produced: [StrokeEvent] = []
            for e in input {
                var decoder = device == 1 ? touch.decoder : pen.decoder
                var assembler = device == 1 ? touch.assembler : pen.assembler
                if let f = assembler.feed(e) {
                    var contacts: [ContactEvent] = []
                    decoder.process(f, into: &contacts)
                    tracker.apply(contacts, device: DeviceID(UInt32(device)), frame: 1, into: &produced)
                }
                if device == 1 {
                    touch.decoder = decoder
                    touch.assembler = assembler
                } else {
                    pen.decoder = decoder
                    pen.assembler = assembler
                }
            }
            return produced.map { "d\($0.device) " + Script.render($0) }
        }
    }

    /// A touch the pen suppressed is not published until it lifts: lost events on the touch
    /// device do not make it a new adopted stroke (an adversary's finding: the resting hand came
    /// back), while a new tracking ID in that slot, or a finger in another, is a stroke again.
    @Test func aSuppressedTouchStaysSuppressedAcrossLostEvents() throws {
        var p = try Pair()
        p.feed(2, [E.px(10), E.py(20), E.pen(1), E.syn])
        #expect(p.feed(1, [E.slot(0), E.id(5), E.x(100), E.y(200), E.syn]) == [])
        #expect(p.feed(2, [E.pen(0), E.syn]) == ["d2 hover(proximityOut) s0 (10,20) pen"])
        let drop = InputEvent(time: .zero, type: .syn, code: SynCode.dropped, value: 0)
        #expect(p.feed(1, [drop, E.x(105), E.syn]) == [])
        #expect(p.feed(1, [E.x(120), E.y(130), E.syn]) == [], "adopted in the suppressed contact's slot: the same hand")
        #expect(p.feed(1, [E.x(125), E.syn]) == [])
        #expect(p.feed(1, [E.id(-1), E.syn]) == [])
        #expect(p.feed(1, [E.id(8), E.x(50), E.y(60), E.syn]) == ["d1 began 1 s0 #8 (50,60)"])
        // Across a second drop with the pen away, a published stroke comes back adopted.
        #expect(p.feed(1, [drop, E.x(55), E.syn]) == ["d1 cancelled(eventsDropped) 1 s0 #8 (50,60)"])
        #expect(p.feed(1, [E.x(70), E.y(80), E.syn]) == ["d1 began 2 s0 #? (70,80) [adopted]"])
    }

    /// Arbitration follows the tool bit, not whether the pen can be published yet: a pen near
    /// whose position is not known (nothing of it published) holds the group's fingers all the
    /// same (an adversary's finding: a finger landing then was published), and releases them
    /// when it leaves unplaced.
    @Test func aPenNearWithoutAPositionHoldsTheFingersToo() throws {
        var p = try Pair()
        #expect(p.feed(1, [E.slot(0), E.id(5), E.x(100), E.y(200), E.syn]) == ["d1 began 1 s0 #5 (100,200)"])
        #expect(p.feed(2, [E.pen(1), E.abs(AbsCode.distance, 10), E.syn]) == ["d1 cancelled(pen) 1 s0 #5 (100,200)"])
        #expect(p.feed(1, [E.slot(1), E.id(6), E.x(300), E.y(300), E.syn]) == [], "a finger landing while the pen is near")
        #expect(p.feed(2, [E.px(10), E.py(20), E.syn]) == ["d2 hover(proximityIn) s0 (10,20) pen"])
        #expect(p.feed(2, [E.pen(0), E.syn]) == ["d2 hover(proximityOut) s0 (10,20) pen"])
        #expect(p.feed(1, [E.slot(0), E.id(-1), E.slot(1), E.id(-1), E.syn]) == [])

        var q = try Pair()
        let drop = InputEvent(time: .zero, type: .syn, code: SynCode.dropped, value: 0)
        q.feed(2, [E.px(10), E.py(20), E.pen(1), E.syn])
        q.feed(2, [drop, E.syn])
        #expect(q.feed(2, [E.pen(1), E.syn]) == [], "after the drop the pen is near, unplaced")
        #expect(q.feed(1, [E.slot(0), E.id(7), E.x(50), E.y(60), E.syn]) == [])
        #expect(q.feed(2, [E.pen(0), E.syn]) == [], "it leaves unplaced: nothing of it was published")
        #expect(q.feed(1, [E.id(-1), E.syn]) == [])
        #expect(q.feed(1, [E.id(8), E.x(50), E.y(60), E.syn]) == ["d1 began 1 s0 #8 (50,60)"])
    }

    @Test func penProximityCancelsTheGroupsFingerStrokesAndHoldsNewTouches() throws {
        var p = try Pair()
        #expect(p.feed(1, [E.slot(0), E.id(5), E.x(100), E.y(200), E.syn]) == ["d1 began 1 s0 #5 (100,200)"])
        #expect(
            p.feed(2, [E.px(10), E.py(20), E.pen(1), E.syn])
                == ["d1 cancelled(pen) 1 s0 #5 (100,200)", "d2 hover(proximityIn) s0 (10,20) pen"])
        // The cancelled finger's motion and lift, and a new finger, are not published.
        #expect(p.feed(1, [E.x(110), E.syn]) == [])
        #expect(p.feed(1, [E.slot(1), E.id(6), E.x(300), E.y(300), E.syn]) == [])
        #expect(p.feed(2, [E.pen(0), E.syn]) == ["d2 hover(proximityOut) s0 (10,20) pen"])
        // Fingers that landed while the pen was near stay unpublished until they lift.
        #expect(p.feed(1, [E.x(310), E.syn]) == [])
        #expect(p.feed(1, [E.slot(0), E.id(-1), E.slot(1), E.id(-1), E.syn]) == [])
        // A touch after the pen left is a stroke again.
        #expect(p.feed(1, [E.slot(0), E.id(7), E.x(50), E.y(60), E.syn]) == ["d1 began 2 s0 #7 (50,60)"])
        #expect(p.tracker.inProgress.count == 1)
    }

    @Test func arbitrationOffForADeviceKeepsItsStrokes() throws {
        var p = try Pair(arbitration: false)
        #expect(p.feed(1, [E.slot(0), E.id(5), E.x(100), E.y(200), E.syn]) == ["d1 began 1 s0 #5 (100,200)"])
        #expect(p.feed(2, [E.px(10), E.py(20), E.pen(1), E.syn]) == ["d2 hover(proximityIn) s0 (10,20) pen"])
        #expect(p.feed(1, [E.x(110), E.syn]) == ["d1 moved 1 s0 #5 (110,200)"])
    }
}
