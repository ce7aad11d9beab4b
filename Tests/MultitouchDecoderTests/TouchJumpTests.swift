import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// Touch jumps (docs/decoder.md, "Touch jumps"): libinput's `tp_detect_jumps()` rule, at its 12 ms
/// reference interval so distances per frame are exact: resolution 10 units/mm, so 200 units in
/// one 12 ms frame is exactly the 20 mm threshold.
@Suite struct TouchJumpTests {
    /// A touchpad contact at x = 100 that then moves by each of `steps` (units), one frame each.
    func touchpadScript(steps: [Int32], interval: Int64 = 12_000) throws -> (Script, [String]) {
        var s = try Script(TestDevices.touchpad())
        s.frameInterval = interval
        var out = s.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.syn])
        var x: Int32 = 100
        for step in steps {
            x += step
            out += s.feed([E.x(x), E.syn])
        }
        return (s, out)
    }

    @Test func motionAtTheThresholdIsBelievableAndOneUnitMoreIsAJump() throws {
        // Ramp 6, 13, 20 mm per frame (growth 6, 7, 7: never more than 7), then 20.1.
        let (_, atThreshold) = try touchpadScript(steps: [60, 130, 200])
        #expect(atThreshold == ["began 1 s0 #1 (100,100)", "moved 1 s0 #1 (160,100)", "moved 1 s0 #1 (290,100)", "moved 1 s0 #1 (490,100)"])
        let (s, over) = try touchpadScript(steps: [60, 130, 200, 201])
        #expect(Array(over.suffix(2)) == ["ended 1 s0 #1 (490,100)", "began 2 s0 #1 (691,100) [jump]"])
        #expect(s.tracker.jumps == 1)
        // The ended stroke is in history with the polyline up to its last believable point.
        #expect(s.tracker.completed.last?.stroke.points.map(\.x) == [100, 160, 290, 490])
        let (_, under) = try touchpadScript(steps: [60, 130, 199])
        #expect(!under.contains { $0.contains("[jump]") })
    }

    /// Motion before a single-touch pad's first `BTN_TOUCH` is not split at a jump while it may
    /// be hover: the press voids it whole. Split, its first part was a completed stroke (in
    /// history) and only the second was cancelled (an adversary's finding). After the press,
    /// jumps are judged as ever; a dump that starts mid-touch (a release first) keeps its stroke.
    @Test func motionThatMayBeHoverIsNotSplitAtAJump() throws {
        var hover = try Script(TestDevices.singleTouchpad())
        hover.frameInterval = 12_000
        #expect(hover.feed([E.px(100), E.py(100), E.syn]) == ["began 1 s0 #? (100,100) [adopted]"])
        #expect(hover.feed([E.px(105), E.syn]) == ["moved 1 s0 #? (105,100)"])
        #expect(hover.feed([E.px(600), E.syn]) == ["moved 1 s0 #? (600,100)"])
        #expect(hover.feed([E.px(610), E.touch(1), E.syn]) == ["cancelled(notTouching) 1 s0 #? (610,100)", "began 2 s0 #? (610,100)"])
        #expect(hover.feed([E.px(1200), E.syn]) == ["ended 2 s0 #? (610,100)", "began 3 s0 #? (1200,100) [jump]"])
        #expect(hover.tracker.completed.map(\.stroke.id.rawValue) == [2])
        var touching = try Script(TestDevices.singleTouchpad())
        touching.frameInterval = 12_000
        touching.feed([E.px(100), E.py(100), E.syn])
        #expect(touching.feed([E.px(600), E.syn]) == ["moved 1 s0 #? (600,100)"])
        #expect(touching.feed([E.touch(0), E.syn]) == ["ended 1 s0 #? (600,100)"])
    }

    @Test func distanceGrowingByMoreThanSevenMillimetresInOneFrameIsAJump() throws {
        let (_, seven) = try touchpadScript(steps: [60, 70])
        #expect(!seven.contains { $0.contains("[jump]") })
        let (_, more) = try touchpadScript(steps: [60, 131])
        #expect(more.last == "began 2 s0 #1 (291,100) [jump]")
        // From rest, the first motion's growth is its whole distance.
        let (_, fromRest) = try touchpadScript(steps: [71])
        #expect(fromRest.last == "began 2 s0 #1 (171,100) [jump]")
    }

    @Test func distancesAreScaledToTheTwelveMillisecondReferenceFrame() throws {
        // 6 ms frames: 35 units (3.5 mm) is 7 mm per 12 ms, 36 is over the growth rule.
        let (_, seven) = try touchpadScript(steps: [35], interval: 6_000)
        #expect(!seven.contains { $0.contains("[jump]") })
        let (_, over) = try touchpadScript(steps: [36], interval: 6_000)
        #expect(over.last?.hasSuffix("[jump]") == true)
    }

    @Test func irregularFramesAreNeverJudged() throws {
        // 31 ms between frames (> 2.5 reference frames): even 100 mm is not a jump.
        let (_, far) = try touchpadScript(steps: [1000], interval: 31_000)
        #expect(far == ["began 1 s0 #1 (100,100)", "moved 1 s0 #1 (1100,100)"])
    }

    @Test func framesDeliveredTogetherAreNeverJudged() throws {
        // 15 units (1.5 mm) from rest: 9 mm per 12 ms at 2 ms, over the growth rule; at 1.999 ms
        // the frames came together (the kernel test's uinput playback on a loaded machine once
        // wrote two frames microseconds apart, and a 0.1 mm step became a jump).
        let (_, together) = try touchpadScript(steps: [15], interval: 1_999)
        #expect(together == ["began 1 s0 #1 (100,100)", "moved 1 s0 #1 (115,100)"])
        let (_, apart) = try touchpadScript(steps: [15], interval: 2_000)
        #expect(apart.last == "began 2 s0 #1 (115,100) [jump]")
    }

    @Test func aJumpInTheLiftFrameIsAStrokeOfItsOwn() throws {
        var s = try Script(TestDevices.touchpad())
        s.frameInterval = 12_000
        s.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.syn])
        s.feed([E.x(150), E.syn])
        let out = s.feed([E.x(900), E.id(-1), E.syn])
        #expect(out == ["ended 1 s0 #1 (150,100)", "began 2 s0 #1 (900,100) [jump]", "ended 2 s0 #1 (900,100)"])
    }

    @Test func touchscreensAndDevicesWithoutResolutionDoNotSplit() throws {
        for description in [TestDevices.touchscreen(), TestDevices.touchpad(resolution: 0)] {
            var s = try Script(description)
            s.frameInterval = 12_000
            s.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.syn])
            let out = s.feed([E.x(900), E.syn])
            #expect(out == ["moved 1 s0 #1 (900,100)"], "\(description.name)")
        }
    }

    @Test func detectionCanBeSwitchedOnForATouchscreenAndOffForATouchpad() throws {
        var screen = try Script(TestDevices.touchscreen())
        screen.tracker.setJumpDetection(JumpSetting.thresholdMM(20).detection(for: .touchscreen), of: screen.device)
        screen.frameInterval = 12_000
        screen.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.syn])
        #expect(screen.feed([E.x(900), E.syn]).last == "began 2 s0 #1 (900,100) [jump]")

        var pad = try Script(TestDevices.touchpad())
        pad.tracker.setJumpDetection(JumpSetting.off.detection(for: .touchpad), of: pad.device)
        pad.frameInterval = 12_000
        pad.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.syn])
        #expect(pad.feed([E.x(900), E.syn]) == ["moved 1 s0 #1 (900,100)"])
    }

    @Test func settingsAreReadFromText() {
        #expect(JumpSetting(text: "default") == .deviceDefault)
        #expect(JumpSetting(text: "off") == .off)
        #expect(JumpSetting(text: "12.5") == .thresholdMM(12.5))
        #expect(JumpSetting(text: "0") == nil)
        #expect(JumpSetting(text: "-3") == nil)
        #expect(JumpSetting(text: "nan") == nil)
        #expect(JumpSetting(text: "far") == nil)
        #expect(JumpSetting(text: "0x10") == nil, "a hexadecimal float, which Double reads as 16")
        #expect(JumpSetting(text: "2e1") == nil)
        #expect(JumpSetting(text: "inf") == nil)
        #expect(JumpSetting(text: "20") == .thresholdMM(20))
        #expect(JumpDetection.defaultFor(.touchpad) == .libinput)
        #expect(JumpDetection.defaultFor(.touchscreen) == nil)
    }

    @Test func everyBeganStillEndsOnceAcrossJumps() throws {
        // Two contacts, one jumping back and forth every frame, then a drop: the invariant holds.
        var s = try Script(TestDevices.touchpad())
        s.frameInterval = 12_000
        s.feed([E.slot(0), E.id(1), E.x(100), E.y(100), E.slot(1), E.id(2), E.x(500), E.y(300), E.syn])
        for i in 0..<6 { s.feed([E.slot(0), E.x(i % 2 == 0 ? 900 : 100), E.syn]) }
        s.feed([E.dropped, E.syn])
        var open = Set<StrokeID>()
        for e in s.events {
            switch e.kind {
            case .began: #expect(open.insert(e.stroke).inserted)
            case .moved: #expect(open.contains(e.stroke))
            case .ended, .cancelled: #expect(open.remove(e.stroke) != nil)
            case .hover: Issue.record("a finger touching never hovers")
            }
        }
        #expect(open.isEmpty)
        #expect(s.tracker.jumps == 6)
        #expect(s.tracker.inProgress.isEmpty)
    }
}
