import GestureRecognizer
import InputCore
import StrokeTracker
import Testing

/// Random touch sequences: whatever the fingers do, every `begin` gets exactly one `end` or
/// `cancel`, with only `update`s between; ids are never reused; time never goes back.
@Suite struct PropertyTests {
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: 0..<200)
    func everyBeginIsClosedOnce(seed: Int) {
        var rng = SplitMix(state: UInt64(seed))
        var c = GestureConfiguration()
        c.directions = Bool.random(using: &rng) ? 4 : 8
        var s = Script(kind: Bool.random(using: &rng) ? .touchscreen : .touchpad, resolution: seed % 5 != 0, configuration: c)
        var down: [UInt64: (Double, Double)] = [:]
        var nextStroke: UInt64 = 1
        var t = 0.0
        for _ in 0..<Int.random(in: 20...200, using: &rng) {
            t += Double.random(in: 0...120, using: &rng)
            if Int.random(in: 0..<6, using: &rng) == 0 {
                s.advance(t)
                continue
            }
            var touches: [Script.Touch] = []
            for (id, p) in down.sorted(by: { $0.key < $1.key }) {
                switch Int.random(in: 0..<10, using: &rng) {
                case 0:
                    touches.append(.up(id, p.0, p.1))
                    down[id] = nil
                case 1 where Int.random(in: 0..<4, using: &rng) == 0:
                    touches.append(.cancel(id))
                    down[id] = nil
                default:
                    let step = Double.random(in: 0...8, using: &rng)
                    let q = (min(max(p.0 + Double.random(in: -step...step, using: &rng), 0), 200),
                             min(max(p.1 + Double.random(in: -step...step, using: &rng), 0), 100))
                    touches.append(.move(id, q.0, q.1))
                    down[id] = q
                }
            }
            if down.count < 7, Int.random(in: 0..<3, using: &rng) == 0 {
                let p = (Double.random(in: 0...200, using: &rng), Double.random(in: 0...100, using: &rng))
                touches.append(.down(nextStroke, p.0, p.1))
                down[nextStroke] = p
                nextStroke += 1
            }
            s.at(t, touches)
        }
        // The device goes away: its strokes are cancelled.
        s.at(t + 1, down.keys.sorted().map { .cancel($0) })
        check(s.out)
        #expect(s.recognizer.deadline == nil)
    }

    func check(_ out: [Gesture]) {
        var open: [UInt64: Gesture.Kind] = [:]
        var closed: Set<UInt64> = []
        var lastTime = Int64.min
        for g in out {
            #expect(g.time.microseconds >= lastTime, "time goes forward")
            lastTime = g.time.microseconds
            #expect(!closed.contains(g.id), "id \(g.id) used after its gesture ended")
            #expect((1...5).contains(g.fingers) || g.kind == .doubleTap)
            switch (g.phase, g.kind) {
            case (.end, .tap), (.end, .doubleTap):
                #expect(open[g.id] == nil)
                closed.insert(g.id)
            case (.begin, _):
                #expect(open[g.id] == nil && g.kind != .tap && g.kind != .doubleTap)
                open[g.id] = g.kind
            case (.update, _):
                #expect(open[g.id] == g.kind && g.kind != .hold)
            case (.end, _), (.cancel, _):
                #expect(open[g.id] == g.kind)
                open[g.id] = nil
                closed.insert(g.id)
            }
        }
        #expect(open.isEmpty, "every begin ends or is cancelled")
        let ids = out.map(\.id)
        #expect(ids == ids.sorted(), "ids are handed out in order")
    }
}
