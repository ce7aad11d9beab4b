import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// libevdev's sync frames after `SYN_DROPPED` on a live device, and the seed frame of a device
/// opened with fingers down (docs/decoder.md, "Lost events" and "Contacts already down").
@Suite struct ResyncTests {
    /// Two fingers down: slot 0 #5 at (100,200), slot 1 #6 at (300,400).
    func twoFingers() throws -> Script {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.slot(1), E.id(6), E.x(300), E.y(400), E.syn])
        return s
    }

    @Test func contactThatSurvivesTheResyncKeepsItsStrokeAndMoves() throws {
        var s = try twoFingers()
        #expect(s.feed([E.slot(0), E.x(120)], origin: .resync) == ["moved 1 s0 #5 (120,200)"])
        #expect(s.feed([E.slot(0), E.id(-1), E.syn]) == ["ended 1 s0 #5 (120,200)"])
    }

    @Test func contactGoneAfterTheResyncIsCancelledNotEnded() throws {
        var s = try twoFingers()
        #expect(s.feed([E.slot(1), E.id(-1)], origin: .resync) == ["cancelled(resync) 2 s1 #6 (300,400)"])
        #expect(s.tracker.completed.isEmpty)
        #expect(s.tracker.inProgress.count == 1)
    }

    /// libevdev ≥ 1.5 terminates a changed slot in a frame of its own, then reports the new state.
    @Test func contactReplacedDuringTheDropIsCancelledAndTheNewOneAdoptedWithItsID() throws {
        var s = try twoFingers()
        #expect(s.feed([E.slot(0), E.id(-1)], origin: .resync) == ["cancelled(resync) 1 s0 #5 (100,200)"])
        #expect(s.feed([E.slot(0), E.id(9), E.x(500)], origin: .resync) == ["began 3 s0 #9 (500,200) [adopted]"])
        #expect(s.feed([E.x(510), E.syn]) == ["moved 3 s0 #9 (510,200)"])
    }

    @Test func replacementWithoutATerminateFrameIsCancelledToo() throws {
        var s = try twoFingers()
        #expect(
            s.feed([E.slot(1), E.id(7), E.x(50)], origin: .resync) == [
                "cancelled(resync) 2 s1 #6 (300,400)", "began 3 s1 #7 (50,400) [adopted]",
            ]
        )
    }

    @Test func contactThatBeganDuringTheDropIsAdopted() throws {
        var s = try twoFingers()
        #expect(s.feed([E.slot(4), E.id(8), E.x(1), E.y(2)], origin: .resync) == ["began 3 s4 #8 (1,2) [adopted]"])
        #expect(s.decoder.diagnostics.resyncs == 1)
    }

    @Test func framesAfterAResyncAreOrdinaryAgain() throws {
        var s = try twoFingers()
        s.feed([E.slot(1), E.id(-1)], origin: .resync)
        #expect(s.feed([E.slot(1), E.id(10), E.x(7), E.syn]) == ["began 3 s1 #10 (7,400)"])
        #expect(s.feed([E.slot(0), E.id(-1), E.syn]) == ["ended 1 s0 #5 (100,200)"])
    }

    @Test func seedFrameAdoptsContactsAlreadyDownWithTheirTrackingIDs() throws {
        var s = try Script(TestDevices.touchscreen(slots: 3))
        let seed = Frame.seed(
            slots: [
                .init(trackingID: -1, axes: [:]),
                .init(trackingID: 41, axes: [AbsCode.mtPositionX: 10, AbsCode.mtPositionY: 20]),
                .init(trackingID: 42, axes: [AbsCode.mtPositionX: 30, AbsCode.mtPositionY: 40]),
            ], currentSlot: 1, time: .zero)
        #expect(
            s.feed(seed.events, origin: .seed) == ["began 1 s1 #41 (10,20) [adopted]", "began 2 s2 #42 (30,40) [adopted]"]
        )
        #expect(s.decoder.diagnostics.unseenContactsEnded == 0)
        // The device's next events apply to the current slot (1), as the kernel says.
        #expect(s.feed([E.x(11), E.syn]) == ["moved 1 s1 #41 (11,20)"])
        // Slot 0 is known to be empty: a new contact there is an ordinary one.
        #expect(s.feed([E.slot(0), E.id(43), E.x(5), E.y(6), E.syn]) == ["began 3 s0 #43 (5,6)"])
    }
}
