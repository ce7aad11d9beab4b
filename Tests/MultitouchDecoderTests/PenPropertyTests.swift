import InputCore
import MultitouchDecoder
import StrokeTracker
import Testing

/// Random pen streams (tool bits, BTN_TOUCH, buttons, axes, zeroed proximity-out frames, drops):
/// strokes keep the lifecycle invariant, hover never happens inside a stroke, and every
/// proximityIn is answered by one proximityOut before the next.
@Suite struct PenPropertyTests {
    @Test(arguments: 0..<40)
    func randomPenStreamsKeepTheLifecycleAndProximityInvariants(seed: UInt64) throws {
        var rng = SplitMix64(state: seed &* 104_729 &+ 3)
        var s = try Script(TestDevices.penDisplay(btnTouch: seed % 5 != 0))
        var events: [InputEvent] = []
        for _ in 0..<400 {
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<10: events.append(E.pen(Int32.random(in: 0...1, using: &rng)))
                case 10..<15: events.append(E.rubber(Int32.random(in: 0...1, using: &rng)))
                case 15..<30: events.append(E.touch(Int32.random(in: 0...1, using: &rng)))
                case 30..<35: events.append(E.key(KeyCode.btnStylus, Int32.random(in: 0...1, using: &rng)))
                case 35..<45: events.append(E.pressure(Int32.random(in: 0...1023, using: &rng)))
                case 45..<47: events.append(E.dropped)
                case 47..<50: events += [E.px(0), E.py(0)]
                case 50..<75: events.append(E.px(Int32.random(in: 0...1000, using: &rng)))
                default: events.append(E.py(Int32.random(in: 0...500, using: &rng)))
                }
            }
            events.append(E.syn)
        }
        s.feed(events)

        var live: UInt64?
        var inProximity = false
        for e in s.events {
            switch e.kind {
            case .began:
                #expect(live == nil, "began inside a stroke")
                #expect(inProximity, "began out of proximity")
                live = e.stroke.rawValue
            case .moved:
                #expect(live == e.stroke.rawValue)
            case .ended, .cancelled:
                #expect(live == e.stroke.rawValue)
                live = nil
            case .hover(let phase):
                switch phase {
                case .proximityIn:
                    #expect(!inProximity)
                    inProximity = true
                case .motion:
                    #expect(inProximity && live == nil, "hover motion during a stroke")
                case .proximityOut:
                    #expect(inProximity && live == nil, "proximityOut before the stroke ended")
                    inProximity = false
                }
            }
        }
        #expect(s.tracker.inProgress.count == (live == nil ? 0 : 1))
        #expect(s.decoder.activeContacts == (live == nil ? 0 : 1))
    }
}

/// Random protocol-B streams on a device with `ABS_MT_DISTANCE`: strokes keep their lifecycle,
/// and each slot's hover is `proximityIn`, `motion`*, `proximityOut`, never during its stroke.
@Suite struct HoverPropertyTests {
    @Test(arguments: 0..<30)
    func randomHoveringStreamsKeepTheInvariants(seed: UInt64) throws {
        var rng = SplitMix64(state: seed &* 6151 &+ 11)
        var s = try Script(MultitouchHoverTests.device())
        var nextID: Int32 = 1
        var events: [InputEvent] = []
        for _ in 0..<400 {
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<15: events.append(E.slot(Int32.random(in: 0..<3, using: &rng)))
                case 15..<25:
                    events.append(E.id(nextID))
                    nextID += 1
                case 25..<35: events.append(E.id(-1))
                case 35..<55: events.append(E.abs(AbsCode.mtDistance, Int32.random(in: 0...3, using: &rng)))
                case 55..<58: events.append(E.tool(Bool.random(using: &rng) ? ToolType.palm : ToolType.finger))
                case 58..<60: events.append(E.dropped)
                case 60..<80: events.append(E.x(Int32.random(in: 0...1000, using: &rng)))
                default: events.append(E.y(Int32.random(in: 0...500, using: &rng)))
                }
            }
            events.append(E.syn)
        }
        s.feed(events)

        var strokes: [UInt64: Int32] = [:]  // live stroke -> slot
        var hovering: Set<Int32> = []
        for e in s.events {
            switch e.kind {
            case .began:
                #expect(strokes[e.stroke.rawValue] == nil)
                #expect(!strokes.values.contains(e.slot), "two strokes in one slot")
                strokes[e.stroke.rawValue] = e.slot
            case .moved:
                #expect(strokes[e.stroke.rawValue] == e.slot)
            case .ended, .cancelled:
                #expect(strokes.removeValue(forKey: e.stroke.rawValue) == e.slot)
            case .hover(let phase):
                #expect(!strokes.values.contains(e.slot), "hover \(phase) during the slot's stroke")
                switch phase {
                case .proximityIn: #expect(hovering.insert(e.slot).inserted)
                case .motion: #expect(hovering.contains(e.slot))
                case .proximityOut: #expect(hovering.remove(e.slot) != nil)
                }
            }
        }
        #expect(strokes.count == s.decoder.activeContacts)
        #expect(s.events.contains { if case .hover = $0.kind { return true } else { return false } })
    }
}
