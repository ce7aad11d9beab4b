import StrokeDaemon
import StrokeTracker
import Testing

@Suite struct ClientQueueTests {
    func drain(_ q: inout ClientQueue<String>) -> [String] {
        var out: [String] = []
        while let e = q.dequeue() { out.append(e.merged > 0 ? "\(e.message)+\(e.merged)" : e.message) }
        return out
    }

    let s1 = MergeKey.moved(StrokeID(rawValue: 1))
    let s2 = MergeKey.moved(StrokeID(rawValue: 2))

    @Test func belowTheThresholdEverythingIsQueuedInOrder() {
        var q = ClientQueue<String>(mergeThreshold: 10, disconnectThreshold: 20)
        for m in ["b1", "m1a", "m1b", "e1"] { #expect(q.enqueue(m, mergeKey: m.hasPrefix("m") ? s1 : nil, bytes: 10) == .queued) }
        #expect(q.bytes == 40)
        #expect(drain(&q) == ["b1", "m1a", "m1b", "e1"])
        #expect(q.bytes == 0)
    }

    @Test func pastTheThresholdAMoveReplacesTheQueuedMoveOfItsStroke() {
        var q = ClientQueue<String>(mergeThreshold: 3, disconnectThreshold: 20)
        _ = q.enqueue("b1", mergeKey: nil, bytes: 1)
        _ = q.enqueue("m1a", mergeKey: s1, bytes: 1)
        _ = q.enqueue("m2a", mergeKey: s2, bytes: 1)
        #expect(q.enqueue("m1b", mergeKey: s1, bytes: 1) == .merged)
        #expect(q.enqueue("m1c", mergeKey: s1, bytes: 1) == .merged)
        #expect(q.enqueue("e2", mergeKey: nil, bytes: 1) == .queued)
        #expect(drain(&q) == ["b1", "m2a", "m1c+2", "e2"])
        #expect(q.mergedTotal == 2)
    }

    /// A move after a new subscription's reply and snapshot is not merged into one queued before
    /// them: its `merged` would count moves numbered before the snapshot's `seq`.
    @Test func aMoveIsNotMergedAcrossASealedPoint() {
        var q = ClientQueue<String>(mergeThreshold: 2, disconnectThreshold: 20)
        _ = q.enqueue("m1a", mergeKey: s1, bytes: 1)
        _ = q.enqueue("m2a", mergeKey: s2, bytes: 1)
        #expect(q.enqueue("m1b", mergeKey: s1, bytes: 1) == .merged)
        q.sealMerges()
        _ = q.enqueue("reply", mergeKey: nil, bytes: 1)
        _ = q.enqueue("snapshot", mergeKey: nil, bytes: 1)
        #expect(q.enqueue("m1c", mergeKey: s1, bytes: 1) == .queued)
        #expect(q.enqueue("m1d", mergeKey: s1, bytes: 1) == .merged)
        #expect(drain(&q) == ["m2a", "m1b+1", "reply", "snapshot", "m1d+1"])
    }

    @Test func beganEndedAndRepliesAreNeverMergedOnlyOverflow() {
        var q = ClientQueue<String>(mergeThreshold: 2, disconnectThreshold: 4)
        for i in 0..<4 { #expect(q.enqueue("e\(i)", mergeKey: nil, bytes: 1) == .queued) }
        #expect(q.enqueue("e4", mergeKey: nil, bytes: 1) == .overflow)
        #expect(drain(&q) == ["e0", "e1", "e2", "e3"])
    }

    /// What is held for the client outside the queue (the rest of a write in the socket layer's
    /// hands) counts against the byte limit and the merge threshold as queued bytes do.
    @Test func bytesHeldOutsideTheQueueCountAgainstItsLimits() {
        var q = ClientQueue<String>(mergeThreshold: 100, disconnectThreshold: 100, byteLimit: 1000)
        q.outside = 600
        #expect(q.held == 600)
        #expect(q.enqueue("r1", mergeKey: nil, bytes: 300) == .queued)
        #expect(q.held == 900)
        #expect(q.enqueue("r2", mergeKey: nil, bytes: 200) == .overflow)
        // Past a quarter of the limit with what is outside: moves merge.
        q.outside = 0
        _ = q.dequeue()
        q.outside = 250
        _ = q.enqueue("m1a", mergeKey: s1, bytes: 1)
        #expect(q.enqueue("m1b", mergeKey: s1, bytes: 1) == .merged)
        q.outside = 0
        #expect(q.enqueue("m1c", mergeKey: s1, bytes: 1) == .queued)
        // Dropping the queue leaves what is outside to its owner.
        q.outside = 10
        q.removeAll()
        #expect(q.bytes == 0 && q.held == 10)
    }

    @Test func aMoveAlreadySentIsNotMergedInto() {
        var q = ClientQueue<String>(mergeThreshold: 1, disconnectThreshold: 10)
        _ = q.enqueue("m1a", mergeKey: s1, bytes: 1)
        _ = q.dequeue()
        _ = q.enqueue("x", mergeKey: nil, bytes: 1)
        #expect(q.enqueue("m1b", mergeKey: s1, bytes: 1) == .queued)
        #expect(drain(&q) == ["x", "m1b"])
    }

    @Test func longRunsStayBoundedAndOrdered() {
        var q = ClientQueue<String>(mergeThreshold: 8, disconnectThreshold: 64)
        var out: [String] = []
        for i in 0..<10_000 {
            _ = q.enqueue("\(i)", mergeKey: nil, bytes: 1)
            if i % 2 == 1 { out.append(q.dequeue()!.message); out.append(q.dequeue()!.message) }
        }
        #expect(out == (0..<10_000).map(String.init))
        #expect(q.isEmpty)
        #expect(q.slots <= 64 + 1)
    }

    /// The bug of issue 11: a never-read queue of merged moves kept one empty slot per merged
    /// move, so its storage grew without bound while `count` stayed under the threshold.
    @Test func mergedMovesFreeTheirSlotsWhenNothingIsRead() {
        var q = ClientQueue<String>(mergeThreshold: 4, disconnectThreshold: 8)
        for _ in 0..<4 { _ = q.enqueue("b", mergeKey: nil, bytes: 1) }
        for i in 0..<100_000 {
            #expect(q.enqueue("m\(i % 3)", mergeKey: .moved(StrokeID(rawValue: UInt64(i % 3))), bytes: 1) != .overflow)
        }
        #expect(q.count == 7)
        #expect(q.bytes == 7)
        #expect(q.slots <= 2 * q.count + 66)
        #expect(drain(&q) == ["b", "b", "b", "b", "m1+33332", "m2+33332", "m0+33333"])
    }

    /// Merged-away entries count for nothing, held ones for everything: the disconnect threshold
    /// is reached by what is actually held.
    @Test func theDisconnectThresholdCountsWhatIsHeld() {
        var q = ClientQueue<String>(mergeThreshold: 2, disconnectThreshold: 5)
        _ = q.enqueue("m", mergeKey: s1, bytes: 1)
        _ = q.enqueue("m", mergeKey: s1, bytes: 1)
        for _ in 0..<100 { #expect(q.enqueue("m", mergeKey: s1, bytes: 1) == .merged) }
        #expect(q.count == 2)
        for i in 0..<3 { #expect(q.enqueue("e\(i)", mergeKey: nil, bytes: 1) == .queued) }
        #expect(q.enqueue("e", mergeKey: nil, bytes: 1) == .overflow)
    }

    @Test func theByteLimitRefusesWhatWouldPassIt() {
        var q = ClientQueue<String>(mergeThreshold: 100, disconnectThreshold: 1000, byteLimit: 1000)
        #expect(q.enqueue("reply", mergeKey: nil, bytes: 600) == .queued)
        #expect(q.enqueue("reply", mergeKey: nil, bytes: 300) == .queued)
        #expect(q.enqueue("reply", mergeKey: nil, bytes: 101) == .overflow)
        #expect(q.bytes == 900)
        _ = q.dequeue()
        #expect(q.enqueue("reply", mergeKey: nil, bytes: 101) == .queued)
        #expect(q.bytes == 401)
    }

    /// Merging starts at a quarter of the byte limit even below the message threshold: big
    /// messages are merged before they add up.
    @Test func mergingStartsAtAQuarterOfTheByteLimit() {
        var q = ClientQueue<String>(mergeThreshold: 1000, disconnectThreshold: 2000, byteLimit: 400)
        #expect(q.enqueue("m1", mergeKey: s1, bytes: 100) == .queued)
        #expect(q.enqueue("m1", mergeKey: s1, bytes: 100) == .merged)
        #expect(q.bytes == 100)
    }

    @Test func aMergeKeyFinishedIsNotMergedInto() {
        var q = ClientQueue<String>(mergeThreshold: 1, disconnectThreshold: 10)
        _ = q.enqueue("m1a", mergeKey: s1, bytes: 1)
        q.finished(s1)
        #expect(q.enqueue("m1b", mergeKey: s1, bytes: 1) == .queued)
        #expect(drain(&q) == ["m1a", "m1b"])
    }

    @Test func removeAllReleasesEverything() {
        var q = ClientQueue<String>(mergeThreshold: 1, disconnectThreshold: 10)
        _ = q.enqueue("a", mergeKey: s1, bytes: 5)
        _ = q.enqueue("b", mergeKey: nil, bytes: 5)
        q.removeAll()
        #expect(q.isEmpty && q.bytes == 0 && q.slots == 0)
        #expect(q.enqueue("m", mergeKey: s1, bytes: 1) == .queued)
        #expect(drain(&q) == ["m"])
    }
}
