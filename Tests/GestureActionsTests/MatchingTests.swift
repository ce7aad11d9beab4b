import GestureActions
import StrokeProtocol
import Testing

@Suite struct MatchingTests {
    @Test func kindAndPhase() {
        let tap = GestureMatch(kind: .tap)
        #expect(tap.matches(gesture(.tap), deviceName: nil))
        #expect(!tap.matches(gesture(.doubleTap), deviceName: nil))
        let hold = GestureMatch(kind: .hold)
        #expect(hold.matches(gesture(.hold, .begin), deviceName: nil))
        #expect(!hold.matches(gesture(.hold, .end), deviceName: nil))
        #expect(!hold.matches(gesture(.hold, .cancel), deviceName: nil))
        let swipe = GestureMatch(kind: .swipe)
        #expect(!swipe.matches(gesture(.swipe, .begin), deviceName: nil))
        #expect(!swipe.matches(gesture(.swipe, .update), deviceName: nil))
        #expect(!swipe.matches(gesture(.swipe, .cancel), deviceName: nil))
        #expect(swipe.matches(gesture(.swipe, .end), deviceName: nil))
    }

    @Test func fingersDirectionsEdges() {
        var m = GestureMatch(kind: .edgeSwipe)
        m.fingers = [3, 4]
        m.directions = [.left, .downLeft]
        m.edges = [.right]
        #expect(m.matches(gesture(.edgeSwipe, fingers: 3, direction: .left, edge: .right), deviceName: nil))
        #expect(m.matches(gesture(.edgeSwipe, fingers: 4, direction: .downLeft, edge: .right), deviceName: nil))
        #expect(!m.matches(gesture(.edgeSwipe, fingers: 2, direction: .left, edge: .right), deviceName: nil))
        #expect(!m.matches(gesture(.edgeSwipe, fingers: 3, direction: .up, edge: .right), deviceName: nil))
        #expect(!m.matches(gesture(.edgeSwipe, fingers: 3, direction: .left, edge: .top), deviceName: nil))
        #expect(!m.matches(gesture(.edgeSwipe, fingers: 3, direction: nil, edge: .right), deviceName: nil))
        #expect(!m.matches(gesture(.edgeSwipe, fingers: 3, direction: .left, edge: nil), deviceName: nil))
    }

    @Test func devicesByIdOrNameGlob() {
        var m = GestureMatch(kind: .tap)
        m.devices = [.id(4), .name("Wacom*Finger")]
        #expect(m.matches(gesture(.tap, device: 4), deviceName: nil))
        #expect(m.matches(gesture(.tap, device: 9), deviceName: "Wacom DTH-2242 Finger"))
        #expect(!m.matches(gesture(.tap, device: 9), deviceName: "Wacom DTH-2242 Pen"))
        #expect(!m.matches(gesture(.tap, device: 9), deviceName: nil))
    }

    @Test func scaleAndAngleBoundsAreInclusive() {
        var pinchIn = GestureMatch(kind: .pinch)
        pinchIn.maxScale = 0.8
        #expect(pinchIn.matches(gesture(.pinch, scale: 0.8), deviceName: nil))
        #expect(!pinchIn.matches(gesture(.pinch, scale: 0.8000001), deviceName: nil))
        #expect(!pinchIn.matches(gesture(.pinch, scale: nil), deviceName: nil))
        var turn = GestureMatch(kind: .rotate)
        turn.minAngle = 30
        turn.maxAngle = 90
        #expect(turn.matches(gesture(.rotate, angle: 30), deviceName: nil))
        #expect(turn.matches(gesture(.rotate, angle: 90), deviceName: nil))
        #expect(!turn.matches(gesture(.rotate, angle: 29.9), deviceName: nil))
        #expect(!turn.matches(gesture(.rotate, angle: -45), deviceName: nil))
    }

    @Test func distanceVelocityAndDurationNeedTheValue() {
        var m = GestureMatch(kind: .swipe)
        m.minDistance = 5
        m.minVelocity = 100
        #expect(m.matches(gesture(.swipe, dmm: (3, 4), velocity: 100), deviceName: nil))
        #expect(!m.matches(gesture(.swipe, dmm: (3, 3.9), velocity: 100), deviceName: nil))
        #expect(!m.matches(gesture(.swipe, dmm: nil, velocity: 100), deviceName: nil), "no millimetres: no match")
        #expect(!m.matches(gesture(.swipe, dmm: (3, 4), velocity: 99.9), deviceName: nil))
        var hold = GestureMatch(kind: .hold, phase: .end)
        hold.minDuration = 1_000_000
        hold.maxDuration = 2_000_000
        #expect(hold.matches(gesture(.hold, .end, duration: 1_000_000), deviceName: nil))
        #expect(hold.matches(gesture(.hold, .end, duration: 2_000_000), deviceName: nil))
        #expect(!hold.matches(gesture(.hold, .end, duration: 999_999), deviceName: nil))
        #expect(!hold.matches(gesture(.hold, .end, duration: 2_000_001), deviceName: nil))
    }
}

@Suite struct RateLimitTests {
    @Test func everyIsAMinimumInterval() {
        var l = RateLimiter(.every(microseconds: 500_000))
        #expect(l.allows(at: 0))
        l.record(at: 0)
        #expect(!l.allows(at: 499_999))
        #expect(l.allows(at: 500_000))
        l.record(at: 500_000)
        #expect(!l.allows(at: 999_999))
    }

    @Test func perSecondIsASlidingWindow() {
        var l = RateLimiter(.perSecond(3))
        for t in [0, 100_000, 200_000] as [Int64] {
            #expect(l.allows(at: t))
            l.record(at: t)
        }
        #expect(!l.allows(at: 999_999))
        #expect(l.allows(at: 1_000_000))
        l.record(at: 1_000_000)
        #expect(!l.allows(at: 1_099_999))
        #expect(l.allows(at: 1_100_000))
    }
}

@Suite struct DispatcherTests {
    func rule(_ name: String, _ match: GestureMatch, limit: GestureRateLimit? = nil) -> GestureRule {
        GestureRule(name: name, match: match, action: .run([name]), limit: limit)
    }

    @Test func theFirstMatchingRuleWins() {
        var three = GestureMatch(kind: .swipe)
        three.fingers = [3]
        let config = GestureActionConfiguration(rules: [rule("three", three), rule("any", GestureMatch(kind: .swipe))], limit: nil)
        var d = GestureDispatcher(config)
        #expect(d.decide(gesture(.swipe, fingers: 3), deviceName: nil, running: 0, now: 0).command?.argv == ["three"])
        #expect(d.decide(gesture(.swipe, fingers: 2), deviceName: nil, running: 0, now: 0).command?.argv == ["any"])
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 0) == .none)
    }

    @Test func aRuleOverItsLimitDoesNotFallThrough() {
        let config = GestureActionConfiguration(
            rules: [rule("limited", GestureMatch(kind: .tap), limit: .every(microseconds: 1_000_000)), rule("other", GestureMatch(kind: .tap))],
            limit: nil)
        var d = GestureDispatcher(config)
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 0).command?.rule == "limited")
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 999_999) == .ruleLimited(rule: "limited"))
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 1_000_000).command?.rule == "limited")
    }

    @Test func theGlobalLimitAndMaxRunning() {
        let config = GestureActionConfiguration(
            rules: [rule("a", GestureMatch(kind: .tap), limit: .perSecond(5)), rule("b", GestureMatch(kind: .doubleTap))],
            limit: .perSecond(2), maxRunning: 2)
        var d = GestureDispatcher(config)
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 0).command != nil)
        #expect(d.decide(gesture(.doubleTap), deviceName: nil, running: 1, now: 10).command != nil)
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 0, now: 20) == .globalLimited(rule: "a"))
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 2, now: 1_000_000) == .busy(rule: "a"))
        // Refusals are not counted: the rule's own 5 a second still has room.
        #expect(d.decide(gesture(.tap), deviceName: nil, running: 1, now: 1_000_000).command != nil)
    }
}

extension GestureDispatcher.Decision {
    var command: PlannedCommand? {
        if case .run(let c) = self { c } else { nil }
    }
}
