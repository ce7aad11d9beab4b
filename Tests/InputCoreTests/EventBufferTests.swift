import InputCore
import Testing

@Suite struct EventBufferTests {
    @Test func appendsGrowPastTheInitialCapacityAndKeepOrder() {
        var b = EventBuffer<Int64>(capacity: 2)
        b.makeUnique()
        for v in 0..<100 { b.appendAssumingUnique(Int64(v)) }
        #expect(b.count == 100)
        #expect(b.array == (0..<100).map(Int64.init))
        b.withUnsafeBufferPointer(from: 98) { #expect(Array($0) == [98, 99]) }
    }

    @Test func removeAllEmptiesAndTheBufferIsReused() {
        var b = EventBuffer<Int32>(capacity: 4)
        b.append(1)
        b.append(2)
        b.removeAll()
        #expect(b.isEmpty)
        b.append(3)
        #expect(b.array == [3])
    }

    /// Value semantics: a copy shares storage until one of them is changed, and `makeUnique`
    /// (which every step calls before appending) separates them; neither sees the other's events.
    @Test func copiesStayIndependent() {
        var a = EventBuffer<Int32>(capacity: 8)
        a.append(1)
        var c = a
        c.makeUnique()
        c.appendAssumingUnique(2)
        a.makeUnique()
        a.appendAssumingUnique(3)
        #expect(a.array == [1, 3])
        #expect(c.array == [1, 2])
        c.removeAll()
        c.append(4)
        #expect(a.array == [1, 3])
    }

    @Test func aCopyTakenBeforeAppendsKeepsItsEvents() {
        var a = EventBuffer<Int32>(capacity: 2)
        a.append(7)
        let kept = a
        for v in 0..<10 { a.append(Int32(v)) }
        #expect(kept.array == [7])
        #expect(a.count == 11)
    }
}
