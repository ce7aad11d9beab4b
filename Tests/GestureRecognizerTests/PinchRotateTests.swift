import GestureRecognizer
import InputCore
import StrokeTracker
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Pinch and rotate (docs/gestures.md).
@Suite struct PinchRotateTests {
    @Test func pinchSpanSlopJustUnderAndJustOver() throws {
        var s = Script()
        s.at(0, .down(1, 70, 50), .down(2, 130, 50))
        // One finger moves: the span changes by as much, the centroid by half.
        #expect(s.at(120, .move(2, 132.5, 50)) == [], "2.5 mm is under the 2.54 mm span slop")
        let begin = s.at(130, .move(2, 132.6, 50))
        #expect(begin.summary == ["pinch begin"] && begin[0].scale == 1 && begin[0].fingers == 2)
        let update = s.at(160, .move(1, 60, 50), .move(2, 142.6, 50))
        #expect(update.summary == ["pinch update"])
        #expect(abs(try #require(update[0].scale) - 82.6 / 62.6) < 1e-9)
        #expect(s.at(190, .up(1, 60, 50)).summary == ["pinch end"])
        #expect(s.at(200, .up(2, 142.6, 50)) == [])
    }

    @Test func pinchingIn() throws {
        var s = Script()
        s.at(0, .down(1, 60, 50), .down(2, 140, 50))
        s.at(120, .move(1, 65, 50), .move(2, 135, 50))
        s.at(140, .move(1, 80, 50), .move(2, 120, 50))
        s.at(160, .up(1, 80, 50), .up(2, 120, 50))
        #expect(s.summary == ["pinch begin", "pinch update", "pinch end"])
        #expect(abs(try #require(s.out.last?.scale) - 40.0 / 70.0) < 1e-9)
    }

    @Test func pinchNeedsTheMinimumSpan() {
        for (gap, pinch) in [(26.9, false), (27.0, true)] {
            var s = Script()
            s.at(0, .down(1, 100, 50), .down(2, 100 + gap, 50))
            s.at(120, .move(1, 97, 50), .move(2, 103 + gap, 50))
            #expect((s.summary == ["pinch begin"]) == pinch, "fingers \(gap) mm apart")
        }
    }

    /// Two fingers 60 mm apart turning about their centre.
    private func turned(_ degrees: Double) -> [Script.Touch] {
        let r = degrees * .pi / 180
        return [.move(1, 100 - 30 * cos(r), 50 - 30 * sin(r)), .move(2, 100 + 30 * cos(r), 50 + 30 * sin(r))]
    }

    @Test func rotateAngleJustUnderAndJustOver() throws {
        var s = Script()
        s.at(0, .down(1, 70, 50), .down(2, 130, 50))
        #expect(s.at(120, turned(14)) == [])
        let begin = s.at(130, turned(16))
        #expect(begin.summary == ["rotate begin"] && begin[0].angle == 0)
        s.at(140, turned(60))
        s.at(150, turned(120))
        let last = s.at(160, turned(196))
        #expect(last.summary == ["rotate update"])
        // Clockwise on screen (y down), summed frame by frame past 180°.
        #expect(abs(try #require(last[0].angle) - 180) < 0.3)
        #expect(s.at(170, turned(196)[0].upForTests).summary == ["rotate end"])
    }

    @Test func counterClockwiseIsNegative() throws {
        var s = Script()
        s.at(0, .down(1, 70, 50), .down(2, 130, 50))
        s.at(120, turned(-20))
        s.at(140, turned(-50))
        #expect(s.summary == ["rotate begin", "rotate update"])
        #expect(abs(try #require(s.out.last?.angle) + 30) < 0.3)
    }
}

extension Script.Touch {
    /// The same finger lifting where it is.
    var upForTests: Script.Touch {
        switch self {
        case .down(let s, let x, let y), .move(let s, let x, let y), .up(let s, let x, let y): .up(s, x, y)
        case .cancel(let s): .cancel(s)
        }
    }
}
