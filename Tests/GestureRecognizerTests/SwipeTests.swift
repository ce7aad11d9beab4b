import GestureRecognizer
import InputCore
import StrokeTracker
import Testing

/// Swipes and edge swipes (docs/gestures.md).
@Suite struct SwipeTests {
    @Test func oneFingerSwipeRight() throws {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        #expect(s.at(10, .move(1, 51, 50)) == [])
        #expect(s.at(20, .move(1, 53, 50)) == [], "past the distance, but within the 100 ms settle time")
        let begin = s.at(100, .move(1, 60, 50))
        #expect(begin.summary == ["swipe begin"])
        #expect(begin[0].direction == .right && begin[0].displacement?.dmmX == 10)
        #expect(s.at(200, .move(1, 70, 50)).summary == ["swipe update"])
        let end = s.at(220, .up(1, 72, 50))
        #expect(end.summary == ["swipe end"] && end[0].id == begin[0].id)
        let d = try #require(end[0].displacement)
        #expect(d.dmmX == 22 && d.dmmY == 0 && abs(d.dnx - 0.11) < 1e-9)
        // Over the last 100 ms (120 to 220 ms): the finger stood at 60 mm from 100 ms until its next
        // frame at 200 ms (a gap past 40 ms is a rest: a moving finger sends frames), so 12 mm in
        // 100 ms.
        #expect(abs(try #require(end[0].velocity) - 120) < 1e-6)
        #expect(abs(try #require(end[0].normalizedVelocity) - 0.6) < 1e-6)
        #expect(end[0].edge == nil && end[0].duration == 220_000)
    }

    @Test func swipeDistanceJustUnderAndJustOver() {
        var under = Script()
        under.at(0, .down(1, 50, 50))
        under.at(20, .move(1, 52.5, 50))
        under.at(30, .up(1, 52.5, 50))
        #expect(under.summary == [], "2.5 mm is short of the 2.54 mm swipe distance")

        var over = Script()
        over.at(0, .down(1, 50, 50))
        #expect(over.at(20, .up(1, 52.6, 50)).summary == ["swipe begin", "swipe end"], "a flick: recognised as it lifts")
    }

    @Test func swipeVelocityJustUnderAndJustOver() {
        // 0.1 mm a frame: every 12.5 ms is 8 mm/s over the 100 ms window, every 12.66 ms 7.9 mm/s,
        // under the 7.95 mm/s minimum, however far the finger goes.
        for (interval, swipes) in [(12.5, true), (12.66, false)] {
            var s = Script()
            s.at(0, .down(1, 50, 50))
            for k in 1...40 { s.at(Double(k) * interval, .move(1, 50 + Double(k) / 10, 50)) }
            #expect(s.summary.contains("swipe begin") == swipes, "\(interval) ms a frame")
        }
    }

    /// A finger that rests sends no frames: touch, rest, flick. Its speed over the last 100 ms
    /// counts from where it rested at the window's start, not from its touch-down 380 ms before
    /// (3 mm in 100 ms: 30 mm/s, where 3 mm in 380 ms would be 7.9 mm/s, under the minimum).
    @Test func aFlickAfterARestIsASwipe() throws {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        let begin = s.at(380, .move(1, 53, 50))
        #expect(begin.summary == ["swipe begin"])
        #expect(abs(try #require(begin.first?.velocity) - 30) < 1e-6)
    }

    /// A finger that lands ends the swipe, and its place is not the swipe's: the end step's
    /// velocity is the swiping finger's (100 mm/s), not the centroid jumping towards the new one.
    @Test func aLandingFingerIsNotInTheEndingSwipesVelocity() throws {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        for k in 1...20 { s.at(Double(k) * 10, .move(1, 50 + Double(k), 50)) }
        let end = s.at(210, .move(1, 71, 50), .down(2, 180, 50))
        #expect(end.summary == ["swipe update", "swipe end"], "the frame's motion, then the landing")
        #expect(abs(try #require(end.last?.velocity) - 100) < 1e-6)
        #expect(end.last?.centroid.mmX == 71)
    }

    @Test(arguments: [
        (dx: 0.0, dy: 10.0, four: Gesture.Direction.down, eight: Gesture.Direction.down),
        (dx: 0.0, dy: -10.0, four: .up, eight: .up),
        (dx: -10.0, dy: 1.0, four: .left, eight: .left),
        (dx: 10.0, dy: 9.0, four: .right, eight: .downRight),
        (dx: 9.0, dy: -10.0, four: .up, eight: .upRight),
        (dx: -8.0, dy: 8.0, four: .left, eight: .downLeft),
        (dx: -8.0, dy: -9.0, four: .up, eight: .upLeft),
    ])
    func directions(dx: Double, dy: Double, four: Gesture.Direction, eight: Gesture.Direction) {
        for ways in [4, 8] {
            var c = GestureConfiguration()
            c.directions = ways
            var s = Script(configuration: c)
            s.at(0, .down(1, 100, 50))
            s.at(50, .up(1, 100 + dx, 50 + dy))
            #expect(s.out.last?.direction == (ways == 4 ? four : eight), "\(ways) ways")
        }
    }

    @Test func fourFingersDraggingDownLandingOneByOne() {
        var s = Script()
        for f in 1...4 { s.at(Double(f) * 15, .down(UInt64(f), Double(40 + 20 * f), 20)) }
        var y = 20.0
        var t = 60.0
        while y < 80 {
            y += 4
            t += 10
            s.at(t, .move(1, 60, y), .move(2, 80, y), .move(3, 100, y), .move(4, 120, y))
        }
        s.at(t + 10, .up(1, 60, y), .up(2, 80, y))
        s.at(t + 20, .up(3, 100, y), .up(4, 120, y))
        #expect(s.summary.first == "swipe begin" && s.summary.last == "swipe end")
        #expect(Set(s.summary.dropFirst().dropLast()) == ["swipe update"])
        #expect(s.out.allSatisfy { $0.fingers == 4 && $0.direction == .down })
        #expect(s.out.last?.displacement?.dmmY == 60)
    }

    @Test func aFingerLandingDuringASwipeEndsIt() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(20, .move(1, 55, 50))
        #expect(s.at(120, .move(1, 58, 50)).summary == ["swipe begin"])
        // The frame's move first, then the finger that landed.
        #expect(s.at(140, .move(1, 60, 50), .down(2, 100, 50)).summary == ["swipe update", "swipe end"])
        #expect(s.out.last?.fingers == 1)
        #expect(s.at(160, .move(2, 110, 50)) == [] && s.at(180, .up(1, 60, 50), .up(2, 110, 50)) == [])
    }

    @Test func aCancelledStrokeCancelsTheSwipe() {
        var s = Script()
        s.at(0, .down(1, 50, 50), .down(2, 60, 50))
        s.at(120, .move(1, 50, 55), .move(2, 60, 55))
        #expect(s.at(130, .cancel(2)).summary == ["swipe cancel"])
        #expect(s.at(150, .up(1, 50, 60)) == [])
    }

    @Test func edgeSwipeFromEachEdgeWithinTheMargin() {
        let cases: [(x: Double, y: Double, dx: Double, dy: Double, edge: Gesture.Edge)] = [
            (4.9, 50, 10, 0, .left), (195.1, 50, -10, 0, .right), (100, 4.9, 0, 10, .top), (100, 95.1, 0, -10, .bottom),
        ]
        for c in cases {
            var s = Script()
            s.at(0, .down(1, c.x, c.y))
            s.at(30, .move(1, c.x + c.dx, c.y + c.dy))
            s.at(40, .up(1, c.x + c.dx, c.y + c.dy))
            #expect(s.summary == ["edgeSwipe begin", "edgeSwipe end"], "\(c.edge)")
            #expect(s.out.allSatisfy { $0.edge == c.edge && $0.direction == c.edge.inwardForTests })
        }
    }

    @Test func fingersLandingWithinTheSettleTimeJoin() {
        var s = Script()
        s.at(0, .down(1, 50, 50))
        s.at(50, .move(1, 50, 60))
        s.at(90, .down(2, 70, 60))
        #expect(s.at(189, .move(1, 50, 70), .move(2, 70, 70)) == [], "99 ms after the second finger")
        let begin = s.at(190, .move(1, 50, 71), .move(2, 70, 71))
        #expect(begin.summary == ["swipe begin"] && begin[0].fingers == 2 && begin[0].displacement?.dmmY == 11)
    }

    @Test func edgeSwipeMarginJustOverAndOutwardAndTouchpads() {
        var outside = Script()
        outside.at(0, .down(1, 5.1, 50))
        outside.at(30, .up(1, 15.1, 50))
        #expect(outside.summary == ["swipe begin", "swipe end"], "5.1 mm is past the 5 mm margin")

        var outward = Script()
        outward.at(0, .down(1, 4, 50))
        outward.at(30, .up(1, 4, 60))
        #expect(outward.summary == ["swipe begin", "swipe end"], "along the edge, not in from it")

        var touchpad = Script(kind: .touchpad)
        touchpad.at(0, .down(1, 1, 50))
        touchpad.at(30, .up(1, 11, 50))
        #expect(touchpad.summary == ["swipe begin", "swipe end"], "no edge swipes on a touchpad")
    }

    @Test func withoutAResolutionThresholdsAreNormalised() throws {
        var s = Script(resolution: false)
        s.at(0, .down(1, 100, 50))
        // 2 "mm" here is 20 units: 0.01 of the x axis, not past the 0.01 slop.
        #expect(s.at(20, .move(1, 102, 50)) == [])
        let out = s.at(40, .up(1, 105, 50))
        #expect(out.summary == ["swipe begin", "swipe end"])
        #expect(out[1].velocity == nil && out[1].centroid.mmX == nil && out[1].displacement?.dmmX == nil)
        #expect(abs(try #require(out[1].displacement?.dnx) - 0.025) < 1e-9)
        #expect(abs(try #require(out[1].normalizedVelocity) - 0.625) < 1e-9)
    }
}

extension Gesture.Edge {
    var inwardForTests: Gesture.Direction {
        switch self {
        case .left: .right
        case .right: .left
        case .top: .down
        case .bottom: .up
        }
    }
}
