import GestureRecognizer
import InputCore
import StrokeTracker
import Testing

/// Taps, double taps and holds, each threshold just under and just over (docs/gestures.md).
@Suite struct TapAndHoldTests {
    @Test func oneFingerTap() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        let out = s.at(80, .up(1, 50, 50))
        #expect(out.summary == ["tap end"])
        #expect(out[0].fingers == 1 && out[0].strokes == [StrokeID(rawValue: 1)])
        #expect(out[0].duration == 80_000 && out[0].time == Timestamp(microseconds: 80_000))
        #expect(out[0].centroid.mmX == 50 && out[0].centroid.nx == 0.25)
    }

    /// A multitouch pen's stroke is drawing (docs/gestures.md, "Pens get no gestures"): a pen dot
    /// is no tap, a pen beside a finger is no pinch, and a finger tapping while the pen rests is
    /// a one-finger tap (an adversary's finding: the pen counted as a finger).
    @Test func multitouchPenStrokesNeverJoinAGesture() {
        var s = Script()
        s.pens = [1]
        s.at(0, .down(1, 50, 50))
        #expect(s.at(20, .up(1, 50.1, 50)).isEmpty, "a pen dot is no tap")
        #expect(s.advance(2000).isEmpty)

        var p = Script()
        p.pens = [2]
        p.at(0, .down(1, 60, 50), .down(2, 140, 50))
        p.at(120, .move(1, 55, 50), .move(2, 145, 50))
        p.at(140, .move(1, 40, 50), .move(2, 160, 50))
        p.at(160, .up(1, 40, 50), .up(2, 160, 50))
        #expect(!p.summary.contains { $0.hasPrefix("pinch") }, "a finger and a pen spreading are no pinch: \(p.summary)")
        #expect(p.out.allSatisfy { $0.fingers == 1 && !$0.strokes.contains(StrokeID(rawValue: 2)) })

        var t = Script()
        t.pens = [1]
        t.at(0, .down(1, 100, 50))
        t.at(500, .move(1, 101, 50), .down(2, 50, 50))
        let tap = t.at(580, .up(2, 50, 50))
        #expect(tap.summary == ["tap end"])
        #expect(tap.first?.fingers == 1 && tap.first?.strokes == [StrokeID(rawValue: 2)])
    }

    /// A device's times can step back (a wall-clock recording across a clock change): time stands
    /// still across the step and runs on from there, so no duration is negative and a finger
    /// resting 300 ms, then 200 ms more after a 5 s step back, is held at 400 ms of its own time,
    /// with the deadline in the device's time.
    @Test func timeThatStepsBackStandsStill() {
        var s = Script()
        s.at(5000, .down(1, 50, 50))
        s.at(5300, .move(1, 50, 50))
        s.at(100, .move(1, 50, 50))  // the clock stepped back 5.2 s
        #expect(s.recognizer.deadline == Timestamp(microseconds: 200_000), "100 ms of the hold timeout left")
        #expect(s.advance(199.999) == [])
        let begin = s.advance(200)
        #expect(begin.summary == ["hold begin"])
        let end = s.at(300, .up(1, 50, 50))
        #expect(end.summary == ["hold end"])
        #expect(end[0].duration == 500_000, "300 ms before the step, 200 ms after")
        #expect(s.out.allSatisfy { $0.duration >= 0 })
        #expect(zip(s.out, s.out.dropFirst()).allSatisfy { $0.time <= $1.time }, "steps never go back in time")
    }

    @Test func tapWithinTheTouchSlopAndNotPastIt() {
        var within = Script()
        within.at(0, .down(1, 50, 50))
        within.at(30, .move(1, 51.2, 50))
        within.at(60, .up(1, 51.2, 50))
        #expect(within.summary == ["tap end"])

        var past = Script()
        past.at(0, .down(1, 50, 50))
        past.at(30, .move(1, 51.3, 50))
        past.at(60, .up(1, 51.3, 50))
        #expect(past.summary == [], "1.3 mm is past the 1.27 mm slop, and short of a swipe")
    }

    @Test func tapJustBeforeTheHoldTimeoutAndHoldAtIt() {
        var tap = Script()
        tap.at(0, .down(1, 50, 50))
        #expect(tap.recognizer.deadline == Timestamp(microseconds: 400_000))
        #expect(tap.advance(399.999) == [])
        #expect(tap.at(399.999, .up(1, 50, 50)).summary == ["tap end"])

        var hold = Script()
        hold.at(0, .down(1, 50, 50))
        let begin = hold.advance(400)
        #expect(begin.summary == ["hold begin"])
        #expect(begin.first?.time == Timestamp(microseconds: 400_000) && begin.first?.duration == 400_000)
        #expect(hold.recognizer.deadline == nil)
        #expect(hold.at(450, .move(1, 60, 50)) == [], "a hold does not follow the finger")
        let end = hold.at(900, .up(1, 60, 50))
        #expect(end.summary == ["hold end"] && end[0].id == begin[0].id && end[0].duration == 900_000)
    }

    /// Every finger of a tap lifts before `holdTimeout`. Once one has lifted no hold can fire, so
    /// a finger resting on until after the timeout is a long press that gives nothing (it gave a
    /// tap of 2 s: a right-click rule fired on it).
    @Test(arguments: [(last: 399.999, tap: true), (last: 400.0, tap: false), (last: 2000.0, tap: false)])
    func aTapWhoseLastFingerLiftsAfterTheHoldTimeoutIsNone(last: Double, tap: Bool) {
        var s = Script()
        s.at(0, .down(1, 50, 50), .down(2, 70, 50))
        s.at(100, .up(1, 50, 50))
        #expect(s.recognizer.deadline == nil, "no hold once a finger lifted")
        #expect(s.at(last, .up(2, 70, 50)).summary == (tap ? ["tap end"] : []))
    }

    @Test func aFrameAfterTheTimeoutFiresTheHoldFirst() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        #expect(s.at(400, .up(1, 50, 50)).summary == ["hold begin", "hold end"])
        #expect(s.out[0].time == Timestamp(microseconds: 400_000))
    }

    @Test func holdOfTwoFingersAndCancelledHold() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(30, .down(2, 70, 50))
        let begin = s.advance(420)
        #expect(begin.summary == ["hold begin"] && begin[0].fingers == 2 && begin[0].centroid.mmX == 60)
        #expect(s.at(500, .cancel(2)).summary == ["hold cancel"])
        #expect(s.at(600, .up(1, 50, 50)) == [], "nothing more of that sequence")
    }

    /// A hold fired on the daemon's timer, then cancelled with the time of the last frame (a
    /// daemon stopping: its cancels carry the device's last frame time, before the timeout): the
    /// cancel is not earlier than the begin, and its duration not shorter (adversary 14).
    @Test func aHoldsStepsNeverGoBackInTime() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(10, .move(1, 50, 50))
        let begin = s.advance(400)
        #expect(begin.summary == ["hold begin"])
        let cancel = s.at(10, .cancel(1))
        #expect(cancel.summary == ["hold cancel"])
        #expect(cancel.first?.time == begin.first?.time && cancel.first?.duration == begin.first?.duration)
    }

    @Test func multiFingerTapsUpToTheLimit() {
        for fingers in 1...6 {
            var s = Script()
            for f in 1...fingers { s.at(Double(f) * 5, .down(UInt64(f), Double(20 * f), 50)) }
            for f in 1...fingers { s.at(100 + Double(f) * 5, .up(UInt64(f), Double(20 * f), 50)) }
            if fingers <= 5 {
                #expect(s.summary == ["tap end"])
                #expect(s.out.first?.fingers == fingers)
                #expect(s.out.first?.strokes == (1...fingers).map { StrokeID(rawValue: UInt64($0)) })
            } else {
                #expect(s.summary == [], "six fingers are more than maxFingers")
            }
        }
    }

    @Test func aFingerDownAfterOneLiftedIsNoTap() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(10, .down(2, 70, 50))
        s.at(50, .up(1, 50, 50))
        s.at(60, .down(3, 90, 50))
        s.at(90, .up(2, 70, 50), .up(3, 90, 50))
        #expect(s.summary == [])
        s.at(500, .down(4, 50, 50))
        #expect(s.at(550, .up(4, 50, 50)).summary == ["tap end"], "the next sequence starts afresh")
    }

    @Test func aCancelledStrokeIsNoTap() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(40, .cancel(1))
        #expect(s.summary == [])
        #expect(s.recognizer.deadline == nil)
    }

    @Test func anAdoptedStrokeGivesNothing() {
        var tap = Script()
        tap.at(0, .adopted(1, 50, 50))
        #expect(tap.recognizer.deadline == nil && tap.advance(1000) == [])
        tap.at(1050, .up(1, 50, 50))
        #expect(tap.summary == [])
        var joined = Script()
        joined.at(0, .down(1, 50, 50))
        joined.at(10, .adopted(2, 70, 50))
        joined.at(20, .up(1, 50, 50), .up(2, 70, 50))
        #expect(joined.summary == [])
        joined.at(500, .down(3, 50, 50))
        #expect(joined.at(550, .up(3, 50, 50)).summary == ["tap end"], "the next sequence is seen whole")
    }

    @Test func aTapShorterThanAFrame() {
        var s = Script()
        #expect(s.at(0, .down(1, 50, 50), .up(1, 50, 50)).summary == ["tap end"])
    }

    /// Two taps: the second goes down 40…300 ms after the first lifted, within 15.9 mm.
    @Test(arguments: [
        (gap: 300.0, dx: 15.8, double: true),
        (gap: 300.5, dx: 0.0, double: false),
        (gap: 40.0, dx: 0.0, double: true),
        (gap: 39.0, dx: 0.0, double: false),
        (gap: 100.0, dx: 16.0, double: false),
    ])
    func doubleTap(gap: Double, dx: Double, double: Bool) {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(60, .up(1, 50, 50))
        s.at(60 + gap, .down(2, 50 + dx, 50))
        let out = s.at(120 + gap, .up(2, 50 + dx, 50))
        #expect(out.summary == (double ? ["tap end", "doubleTap end"] : ["tap end"]))
        if double {
            // Both taps' strokes; `fingers` is each tap's count (a rule for a one-finger double
            // tap matched none when it was the strokes' count).
            #expect(out[1].strokes == [StrokeID(rawValue: 1), StrokeID(rawValue: 2)] && out[1].fingers == 1)
            #expect(out[1].id != out[0].id)
        }
    }

    @Test func aThirdTapStartsANewPair() {
        var s = Script()
        for i in 0..<4 {
            let t = Double(i) * 200
            s.at(t, .down(UInt64(i + 1), 50, 50))
            s.at(t + 50, .up(UInt64(i + 1), 50, 50))
        }
        #expect(s.summary == ["tap end", "tap end", "doubleTap end", "tap end", "tap end", "doubleTap end"])
    }

    @Test func doubleTapNeedsTheSameFingers() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(50, .up(1, 50, 50))
        s.at(150, .down(2, 50, 50), .down(3, 60, 50))
        s.at(200, .up(2, 50, 50), .up(3, 60, 50))
        #expect(s.summary == ["tap end", "tap end"])
    }

    @Test func idsAreTheCallersCounter() {
        var s = Script()
        s.ids = 41
        s.at(0, .down(1, 50, 50))
        s.at(50, .up(1, 50, 50))
        #expect(s.out.map(\.id) == [42] && s.ids == 42)
    }

    @Test func pensGetNoGestures() {
        var c = GestureConfiguration()
        c.enabled = false
        var s = Script(configuration: c)
        s.at(0, .down(1, 50, 50))
        s.at(50, .up(1, 50, 50))
        #expect(!s.recognizer.enabled && s.summary == [])
    }
}
