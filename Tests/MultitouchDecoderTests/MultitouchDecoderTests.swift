import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

@Suite struct MultitouchDecoderTests {
    @Test func touchDownMoveLift() throws {
        var s = try Script(TestDevices.touchscreen())
        #expect(s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.syn]) == ["began 1 s0 #5 (100,200)"])
        #expect(s.feed([E.x(110), E.syn]) == ["moved 1 s0 #5 (110,200)"])
        #expect(s.feed([E.id(-1), E.syn]) == ["ended 1 s0 #5 (110,200)"])
        #expect(s.tracker.inProgress.isEmpty)
        #expect(s.tracker.completed.map { $0.stroke.points.map(\.x) } == [[100, 110]])
    }

    /// A copy of a script (decoder, tracker, packed strokes in progress) goes its own way: what one
    /// is fed does not change the other (the slot table and the packing buffers are shared until
    /// written, then copied).
    @Test func copiesOfADecoderAndTrackerAreIndependent() throws {
        var a = try Script(TestDevices.touchscreen())
        a.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.slot(1), E.id(6), E.x(10), E.y(20), E.syn])
        a.feed([E.slot(0), E.x(110), E.syn])
        var b = a
        #expect(a.feed([E.slot(0), E.x(120), E.slot(1), E.id(-1), E.syn]) == ["moved 1 s0 #5 (120,200)", "ended 2 s1 #6 (10,20)"])
        #expect(b.feed([E.slot(0), E.id(-1), E.syn]) == ["ended 1 s0 #5 (110,200)"])
        #expect(b.feed([E.slot(1), E.x(11), E.syn]) == ["moved 2 s1 #6 (11,20)"])
        #expect(a.feed([E.slot(0), E.id(-1), E.syn]) == ["ended 1 s0 #5 (120,200)"])
        #expect(a.tracker.completed.map { $0.stroke.points.map(\.x) } == [[10], [100, 110, 120]])
        #expect(b.tracker.completed.map { $0.stroke.points.map(\.x) } == [[100, 110]])
        #expect(b.tracker.live.map { $0.points.map(\.x) } == [[10, 11]])
    }

    @Test func touchThatBeginsAndEndsWithinOneFrameYieldsBeganAndEnded() throws {
        var s = try Script(TestDevices.touchscreen())
        #expect(s.feed([E.slot(0), E.id(7), E.x(10), E.y(20), E.id(-1), E.syn]) == ["began 1 s0 #7 (10,20)", "ended 1 s0 #7 (10,20)"])
        #expect(s.tracker.inProgress.isEmpty)
    }

    @Test func sameFrameEndAndBeginInOneSlotEndsOldAndBeginsNew() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.syn])
        #expect(
            s.feed([E.x(150), E.id(-1), E.id(6), E.x(300), E.syn]) == ["ended 1 s0 #5 (150,200)", "began 2 s0 #6 (300,200)"]
        )
    }

    @Test func newTrackingIDWithoutMinusOneEndsOldAndBeginsNew() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.syn])
        #expect(s.feed([E.id(6), E.x(300), E.syn]) == ["ended 1 s0 #5 (100,200)", "began 2 s0 #6 (300,200)"])
    }

    @Test func repeatedTrackingIDIsIgnored() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.syn])
        #expect(s.feed([E.id(5), E.x(101), E.syn]) == ["moved 1 s0 #5 (101,200)"])
        #expect(s.decoder.diagnostics.repeatedTrackingIDs == 1)
    }

    @Test func initialSlotComesFromTheDescription() throws {
        var s = try Script(TestDevices.touchscreen(initialSlot: 3))
        #expect(s.feed([E.id(9), E.x(1), E.y(2), E.syn]) == ["began 1 s3 #9 (1,2)"])
    }

    @Test func contactDownAtStartIsAdoptedAndFlagged() throws {
        var s = try Script(TestDevices.touchscreen())
        // Its y is not known yet: it begins with its first real position (docs/decoder.md).
        #expect(s.feed([E.slot(2), E.x(40), E.syn]) == [])
        #expect(s.feed([E.y(50), E.syn]) == ["began 1 s2 #? (40,50) [adopted]"])
        #expect(s.feed([E.x(45), E.syn]) == ["moved 1 s2 #? (45,50)"])
        #expect(s.feed([E.id(-1), E.syn]) == ["ended 1 s2 #? (45,50)"])
        // The slot is known now: a later contact is an ordinary one.
        #expect(s.feed([E.id(12), E.syn]) == ["began 2 s2 #12 (45,50)"])
    }

    @Test func endOfAContactNeverSeenPublishesNothing() throws {
        var s = try Script(TestDevices.touchscreen())
        #expect(s.feed([E.slot(1), E.id(-1), E.syn]) == [])
        #expect(s.decoder.diagnostics.unseenContactsEnded == 1)
        #expect(s.feed([E.x(5), E.syn]) == [], "motion in a slot known to be empty is not a contact")
    }

    @Test func palmOnALiveContactCancelsIt() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.syn])
        #expect(s.feed([E.tool(ToolType.palm), E.x(120), E.syn]) == ["cancelled(palm) 1 s0 #5 (120,200)"])
        #expect(s.feed([E.x(130), E.syn]) == [], "a cancelled palm publishes nothing more")
        #expect(s.feed([E.tool(ToolType.finger), E.x(140), E.syn]) == [], "palm -> finger stays suppressed")
        #expect(s.feed([E.id(-1), E.syn]) == [])
        #expect(s.feed([E.id(6), E.syn]) == ["began 2 s0 #6 (140,200)"], "the next touch is a new stroke")
        #expect(s.tracker.completed.count == 0, "cancelled strokes never enter the history")
        #expect(s.tracker.inProgress.values.map(\.id.rawValue) == [2])
    }

    @Test func contactThatStartsAsPalmIsNeverPublished() throws {
        var s = try Script(TestDevices.touchscreen())
        #expect(s.feed([E.slot(0), E.id(5), E.tool(ToolType.palm), E.x(100), E.syn]) == [])
        #expect(s.feed([E.x(110), E.syn]) == [])
        #expect(s.feed([E.id(-1), E.syn]) == [])
        #expect(s.decoder.diagnostics.palmsSuppressed == 1)
        #expect(s.feed([E.tool(ToolType.finger), E.id(6), E.y(30), E.syn]) == ["began 1 s0 #6 (110,30)"])
    }

    @Test func synDroppedCancelsLiveStrokesAndDiscardsToNextReport() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(5), E.x(100), E.y(200), E.slot(1), E.id(6), E.x(300), E.y(300), E.syn])
        let out = s.feed([E.slot(0), E.x(101), E.dropped, E.x(999), E.id(-1), E.syn])
        #expect(out == ["cancelled(eventsDropped) 1 s0 #5 (100,200)", "cancelled(eventsDropped) 2 s1 #6 (300,300)"])
        #expect(s.tracker.inProgress.isEmpty)
        // After the drop the slots are unknown, their positions too: motion adopts and a new id
        // begins once both coordinates are reported again (HardCaseRegressionTests).
        #expect(s.feed([E.slot(0), E.x(105), E.slot(1), E.id(8), E.syn]) == [])
        #expect(s.feed([E.slot(0), E.y(205), E.slot(1), E.x(310), E.y(310), E.syn])
            == ["began 3 s0 #? (105,205) [adopted]", "began 4 s1 #8 (310,310)"])
        #expect(s.decoder.diagnostics.drops == 1)
    }

    @Test func trackingIDWrapFrom65535To0GivesDistinctStrokes() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(65535), E.x(1), E.y(1), E.syn])
        s.feed([E.slot(1), E.id(0), E.x(2), E.y(2), E.syn])
        s.feed([E.slot(0), E.id(-1), E.syn])
        #expect(s.feed([E.slot(0), E.id(1), E.syn]) == ["began 3 s0 #1 (1,1)"])
        let ids = s.events.filter { $0.kind == .began }.map(\.stroke.rawValue)
        #expect(ids == [1, 2, 3])
        #expect(Set(s.tracker.inProgress.values.map(\.trackingID)) == [0, 1])
    }

    @Test func slotOutOfRangeIsCountedAndItsEventsIgnored() throws {
        var s = try Script(TestDevices.touchscreen(slots: 4))
        s.feed([E.slot(0), E.id(5), E.x(1), E.y(1), E.syn])
        #expect(s.feed([E.slot(7), E.id(9), E.x(50), E.slot(-2), E.x(3), E.syn]) == [])
        #expect(s.decoder.diagnostics.slotOutOfRange == 2)
        #expect(s.decoder.diagnostics.eventsForInvalidSlot == 3)
        #expect(s.feed([E.slot(0), E.x(2), E.syn]) == ["moved 1 s0 #5 (2,1)"], "slot 0 was not corrupted")
    }

    @Test func undeclaredCodesAndOutOfRangeValuesAreCountedNotFatal() throws {
        var s = try Script(TestDevices.touchscreen(toolType: false))
        #expect(s.feed([E.slot(0), E.id(5), E.x(5000), E.y(1), E.tool(ToolType.palm), E.abs(AbsCode.mtDistance, 3), E.syn]) == [
            "began 1 s0 #5 (5000,1)"
        ])
        #expect(s.decoder.diagnostics.undeclaredCodes == 2)
        #expect(s.decoder.diagnostics.valuesOutOfRange == 1)
        #expect(s.events[0].point.nx == 5.0, "raw value kept; normalised value not clamped")
    }

    @Test func singleTouchDeviceGivesOneStrokeAtATime() throws {
        var s = try Script(TestDevices.singleTouch())
        #expect(s.feed([E.abs(AbsCode.x, 10), E.abs(AbsCode.y, 20), E.key(KeyCode.btnTouch, 1), E.syn]) == ["began 1 s0 #? (10,20)"])
        #expect(s.feed([E.abs(AbsCode.x, 15), E.syn]) == ["moved 1 s0 #? (15,20)"])
        #expect(s.feed([E.key(KeyCode.btnTouch, 0), E.syn]) == ["ended 1 s0 #? (15,20)"])
        #expect(s.feed([E.abs(AbsCode.x, 16), E.syn]) == [], "hover motion is not a stroke")
        #expect(s.feed([E.key(KeyCode.btnTouch, 1), E.syn]) == ["began 2 s0 #? (16,20)"])
    }

    /// A `BTN_TOUCH` repeating its value is ignored and counted as a slot's repeat is, in its own
    /// words (it was logged as an `ABS_MT_TRACKING_ID` repeat: an adversary's observation).
    @Test func aRepeatedTouchKeyIsReportedAsTheKey() throws {
        var s = try Script(TestDevices.singleTouch())
        s.feed([E.px(10), E.py(20), E.touch(1), E.syn])
        #expect(s.feed([E.touch(1), E.px(11), E.syn]) == ["moved 1 s0 #? (11,20)"])
        #expect(s.decoder.diagnostics.repeatedTrackingIDs == 1)
        #expect(s.decoder.reports == [.repeatedTouchKey(value: 1)])
        #expect(s.decoder.reports.first?.message() == "BTN_TOUCH 1 while the key is already down; ignored")
        #expect(s.feed([E.touch(0), E.syn]) == ["ended 1 s0 #? (11,20)"])
        #expect(s.feed([E.touch(0), E.syn]) == [])
        #expect(s.decoder.diagnostics.repeatedContactEnds == 1)
        #expect(s.decoder.reports == [.repeatedTouchKey(value: 0)])
    }

    /// A recording has no key state: motion before the stream's first `BTN_TOUCH` is adopted (a
    /// dump that starts mid-touch), and that first `BTN_TOUCH` settles it. A release says the key
    /// was down: the adopted stroke ends. A press says it was up (the kernel sends a key only when
    /// it changes): the motion was a pen hovering or a finger approaching, and the adopted stroke
    /// is void (`notTouching`), not a completed stroke (adversary script 120: a hovering UC-Logic
    /// pen drew a 1.9 s phantom line).
    @Test func theFirstTouchKeySettlesMotionBeforeIt() throws {
        var hover = try Script(TestDevices.singleTouch())
        #expect(hover.feed([E.px(10), E.py(20), E.syn]) == ["began 1 s0 #? (10,20) [adopted]"])
        #expect(hover.feed([E.px(12), E.syn]) == ["moved 1 s0 #? (12,20)"])
        #expect(hover.feed([E.px(14), E.touch(1), E.syn]) == ["cancelled(notTouching) 1 s0 #? (14,20)", "began 2 s0 #? (14,20)"])
        #expect(hover.feed([E.touch(0), E.syn]) == ["ended 2 s0 #? (14,20)"])
        #expect(hover.tracker.completed.map(\.id.rawValue) == [2], "the void stroke is not history")
        // Not yet published (one coordinate), completed in the press's frame: never published.
        var pending = try Script(TestDevices.singleTouch())
        #expect(pending.feed([E.px(10), E.syn]) == [])
        #expect(pending.feed([E.py(20), E.touch(1), E.syn]) == ["began 1 s0 #? (10,20)"])
        #expect(pending.decoder.diagnostics.nonZero.isEmpty)
        var midTouch = try Script(TestDevices.singleTouch())
        #expect(midTouch.feed([E.px(10), E.py(20), E.syn]) == ["began 1 s0 #? (10,20) [adopted]"])
        #expect(midTouch.feed([E.px(12), E.touch(0), E.syn]) == ["ended 1 s0 #? (12,20)"])
        #expect(midTouch.feed([E.px(13), E.touch(1), E.syn]) == ["began 2 s0 #? (13,20)"])
        // Once the key is known, motion without it is hover, and a press is an ordinary touch.
        #expect(midTouch.feed([E.touch(0), E.syn]) == ["ended 2 s0 #? (13,20)"])
        #expect(midTouch.feed([E.px(30), E.syn]) == [])
        #expect(midTouch.feed([E.touch(1), E.syn]) == ["began 3 s0 #? (30,20)"])
    }

    /// A live device's key state is read when it is opened (`EvdevDevice.keySeedEvents`): up, its
    /// motion is never a contact; down, the touch is adopted.
    @Test func aSeededTouchKeyMakesTheStateKnown() throws {
        var up = try Script(TestDevices.singleTouch())
        #expect(up.feed([E.touch(0)], origin: .seed) == [])
        #expect(up.feed([E.px(10), E.py(20), E.syn]) == [], "hover, not an adopted contact")
        #expect(up.feed([E.touch(1), E.syn]) == ["began 1 s0 #? (10,20)"])
        #expect(up.decoder.diagnostics.nonZero.isEmpty)
        var down = try Script(TestDevices.singleTouch())
        #expect(down.feed([E.touch(1)], origin: .seed) == [], "no position yet")
        #expect(down.feed([E.px(10), E.py(20), E.syn]) == ["began 1 s0 #? (10,20) [adopted]"])
        #expect(down.feed([E.touch(0), E.syn]) == ["ended 1 s0 #? (10,20)"])
    }

    /// The kernel sends an axis only when it changes: a touch on the row the device last reported
    /// sends `ABS_X` alone. Where the description knows the device's state (a live device, a
    /// recording header with values) the position starts from it; where it does not, the touch
    /// waits for its `ABS_Y` (no invented values).
    @Test func singleTouchPositionStartsFromTheDescribedState() throws {
        var known = TestDevices.singleTouch()
        known.absInfo[AbsCode.x]!.value = 40
        known.absInfo[AbsCode.y]!.value = 30
        var unknown = known
        known.currentValues = [AbsCode.x, AbsCode.y]
        var s = try Script(known)
        #expect(s.feed([E.abs(AbsCode.x, 10), E.key(KeyCode.btnTouch, 1), E.syn]) == ["began 1 s0 #? (10,30)"])
        #expect(s.feed([E.key(KeyCode.btnTouch, 0), E.syn]) == ["ended 1 s0 #? (10,30)"])
        var both = try Script(known)
        #expect(both.feed([E.key(KeyCode.btnTouch, 1), E.syn]) == ["began 1 s0 #? (40,30)"])
        unknown.currentValues = []
        var u = try Script(unknown)
        #expect(u.feed([E.abs(AbsCode.x, 10), E.key(KeyCode.btnTouch, 1), E.syn]) == [], "no y known: pending")
        #expect(u.feed([E.abs(AbsCode.y, 20), E.syn]) == ["began 1 s0 #? (10,20)"])
    }

    /// Only the position axes are seeded, and only in single-touch and pen modes: a multitouch
    /// device's `ABS_X`/`ABS_Y` are its single-touch emulation.
    @Test func multitouchSlotsAreNotSeededFromTheDescription() throws {
        var d = TestDevices.touchscreen()
        d.absInfo[AbsCode.x]!.value = 40
        d.absInfo[AbsCode.y]!.value = 30
        d.currentValues = Set(d.absInfo.keys)
        var s = try Script(d)
        #expect(s.feed([E.slot(0), E.id(1), E.x(10), E.syn]) == [], "no MT y: pending")
        #expect(s.feed([E.y(20), E.syn]) == ["began 1 s0 #1 (10,20)"])
    }

    @Test func protocolAWithoutSingleTouchAxesIsRefused() {
        #expect(throws: DecoderError.protocolAUnsupported(deviceName: "test protocol A")) {
            try MultitouchDecoder(description: TestDevices.protocolA(withSingleTouch: false))
        }
    }

    @Test func protocolAWithSingleTouchAxesIsDecodedAsSingleTouch() throws {
        let decoder = try MultitouchDecoder(description: TestDevices.protocolA(withSingleTouch: true))
        #expect(decoder.mode == .singleTouch)
        var s = try Script(TestDevices.protocolA(withSingleTouch: true))
        let out = s.feed([
            E.x(1), E.y(1), InputEvent(time: .zero, type: .syn, code: SynCode.mtReport, value: 0),
            E.abs(AbsCode.x, 1), E.abs(AbsCode.y, 1), E.key(KeyCode.btnTouch, 1), E.syn,
        ])
        #expect(out == ["began 1 s0 #? (1,1)"])
        #expect(s.decoder.diagnostics.protocolAReports == 0, "a protocol A device's own framing is no fault")
    }

    @Test func semiMTContactsAreFlagged() throws {
        var d = TestDevices.touchscreen(slots: 2)
        d.properties = [InputProperty.semiMT, InputProperty.buttonpad]
        var s = try Script(d)
        #expect(s.feed([E.slot(0), E.id(1), E.x(0), E.y(0), E.syn]) == ["began 1 s0 #1 (0,0) [semiMT]"])
    }

    @Test func deviceRemovalCancelsEveryLiveStroke() throws {
        var s = try Script(TestDevices.touchscreen())
        s.feed([E.slot(0), E.id(1), E.x(1), E.y(0), E.slot(1), E.id(2), E.x(2), E.y(0), E.syn])
        var contacts: [ContactEvent] = []
        s.decoder.cancelAll(reason: .deviceRemoved, time: Timestamp(microseconds: 99), into: &contacts)
        var out: [StrokeEvent] = []
        s.tracker.apply(contacts, device: s.device, frame: 2, into: &out)
        #expect(out.map(Script.render) == ["cancelled(deviceRemoved) 1 s0 #1 (1,0)", "cancelled(deviceRemoved) 2 s1 #2 (2,0)"])
        #expect(s.tracker.inProgress.isEmpty)
    }

    @Test func completedHistoryIsBoundedAndOldestFirst() throws {
        var s = try Script(TestDevices.touchscreen())
        for id in Int32(1)...6 {
            s.feed([E.slot(0), E.id(id), E.x(id), E.y(1), E.syn, E.id(-1), E.syn])
        }
        #expect(s.tracker.completed.map(\.id.rawValue) == [3, 4, 5, 6])
    }
}
