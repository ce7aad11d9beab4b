import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct InvariantPropertyTests {
    /// Random protocol-B streams, including the nasty parts (same-frame end + begin, N -> M, taps
    /// within a frame, palms, drops, bad slots, repeated ids, wrapping ids): every `began` is
    /// followed by exactly one `ended` or `cancelled`, nothing follows that, and what is still in
    /// progress at the end is exactly what the decoder holds down.
    @Test(arguments: 0..<40)
    func randomStreamsKeepTheLifecycleInvariant(seed: UInt64) throws {
        var rng = SplitMix64(state: seed &* 7919 &+ 1)
        let slotCount = Int32.random(in: 1...6, using: &rng)
        var s = try Script(TestDevices.touchscreen(slots: slotCount, initialSlot: Int32.random(in: 0..<slotCount, using: &rng)))
        var nextID = Int32.random(in: 65000...65535, using: &rng)
        var events: [InputEvent] = []
        for _ in 0..<400 {
            let actions = Int.random(in: 0...5, using: &rng)
            for _ in 0..<actions {
                let roll = Int.random(in: 0..<100, using: &rng)
                switch roll {
                case 0..<15: events.append(E.slot(Int32.random(in: 0..<slotCount, using: &rng)))
                case 15..<28:
                    events.append(E.id(nextID))
                    nextID = nextID == 65535 ? 0 : nextID + 1
                case 28..<40: events.append(E.id(-1))
                case 40..<75:
                    events.append(Bool.random(using: &rng) ? E.x(Int32.random(in: -10...1010, using: &rng)) : E.y(Int32.random(in: 0...500, using: &rng)))
                case 75..<80: events.append(E.tool(Bool.random(using: &rng) ? ToolType.palm : ToolType.finger))
                case 80..<82: events.append(E.slot(Int32.random(in: -3...(slotCount + 3), using: &rng)))
                case 82..<84: events.append(E.dropped)
                case 84..<86: events.append(E.abs(AbsCode.mtPressure, Int32.random(in: 0...300, using: &rng)))
                default: events.append(E.x(Int32.random(in: 0...1000, using: &rng)))
                }
            }
            events.append(E.syn)
        }
        s.feed(events)

        var state: [UInt64: String] = [:]
        var lastBegan: UInt64 = 0
        for e in s.events {
            let id = e.stroke.rawValue
            switch e.kind {
            case .began:
                #expect(state[id] == nil, "stroke \(id) began twice")
                #expect(id > lastBegan, "stroke ids increase")
                lastBegan = id
                state[id] = "live"
            case .moved:
                #expect(state[id] == "live", "moved for stroke \(id) in state \(state[id] ?? "none")")
            case .ended, .cancelled:
                #expect(state[id] == "live", "\(e.kind) for stroke \(id) in state \(state[id] ?? "none")")
                state[id] = "done"
            case .hover:
                Issue.record("hover from a device without ABS_MT_DISTANCE")
            }
        }
        let live = state.filter { $0.value == "live" }.map(\.key).sorted()
        #expect(live == s.tracker.inProgress.values.map(\.id.rawValue).sorted())
        #expect(live.count == s.decoder.activeContacts)
        #expect(s.events.contains { $0.kind == .began }, "the generator exercises something")
    }
}
