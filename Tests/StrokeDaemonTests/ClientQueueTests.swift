import StrokeDaemon
import StrokeTracker
import Testing

@Suite struct ClientQueueTests {
    func drain(_ q: inout ClientQueue<String>) -> [String] {
        var out: [String] = []
        while let e = q.dequeue() { out.append(e.merged > 0 ? "\(e.message)+\(e.merged)" : e.message) }
        return out
    }

    let s1 = StrokeID(rawValue: 1)
    let s2 = StrokeID(rawValue: 2)

    @Test func belowTheThresholdEverythingIsQueuedInOrder() {
        var q = ClientQueue<String>(mergeThreshold: 10, disconnectThreshold: 20)
        for m in ["b1", "m1a", "m1b", "e1"] { #expect(q.enqueue(m, mergeKey: m.hasPrefix("m") ? s1 : nil) == .queued) }
        #expect(drain(&q) == ["b1", "m1a", "m1b", "e1"])
    }

    @Test func pastTheThresholdAMoveReplacesTheQueuedMoveOfItsStroke() {
        var q = ClientQueue<String>(mergeThreshold: 3, disconnectThreshold: 20)
        _ = q.enqueue("b1", mergeKey: nil)
        _ = q.enqueue("m1a", mergeKey: s1)
        _ = q.enqueue("m2a", mergeKey: s2)
        #expect(q.enqueue("m1b", mergeKey: s1) == .merged)
        #expect(q.enqueue("m1c", mergeKey: s1) == .merged)
        #expect(q.enqueue("e2", mergeKey: nil) == .queued)
        #expect(drain(&q) == ["b1", "m2a", "m1c+2", "e2"])
        #expect(q.mergedTotal == 2)
    }

    @Test func beganEndedAndRepliesAreNeverMergedOnlyOverflow() {
        var q = ClientQueue<String>(mergeThreshold: 2, disconnectThreshold: 4)
        for i in 0..<4 { #expect(q.enqueue("e\(i)", mergeKey: nil) == .queued) }
        #expect(q.enqueue("e4", mergeKey: nil) == .overflow)
        #expect(drain(&q) == ["e0", "e1", "e2", "e3"])
    }

    @Test func aMoveAlreadySentIsNotMergedInto() {
        var q = ClientQueue<String>(mergeThreshold: 1, disconnectThreshold: 10)
        _ = q.enqueue("m1a", mergeKey: s1)
        _ = q.dequeue()
        _ = q.enqueue("x", mergeKey: nil)
        #expect(q.enqueue("m1b", mergeKey: s1) == .queued)
        #expect(drain(&q) == ["x", "m1b"])
    }

    @Test func longRunsStayBoundedAndOrdered() {
        var q = ClientQueue<String>(mergeThreshold: 8, disconnectThreshold: 64)
        var out: [String] = []
        for i in 0..<10_000 {
            _ = q.enqueue("\(i)", mergeKey: nil)
            if i % 2 == 1 { out.append(q.dequeue()!.message); out.append(q.dequeue()!.message) }
        }
        #expect(out == (0..<10_000).map(String.init))
        #expect(q.isEmpty)
    }
}
