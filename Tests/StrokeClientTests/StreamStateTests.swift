import StrokeClient
import StrokeProtocol
import Testing

/// The resume bookkeeping, without a daemon.
struct StreamStateTests {
    func hello(_ instance: String, seq: UInt64 = 0) -> Hello {
        Hello(protocol: 1, daemon: "strokes test", instance: instance, seq: seq, features: [], maxLineLength: 65536)
    }

    func moved(_ seq: UInt64, merged: Int? = nil) -> ServerMessage {
        .stroke(StrokeMessage(
            kind: .moved, seq: seq, merged: merged, stroke: 1, device: 1, frame: seq, slot: 0, trackingId: 5,
            point: PointObject(time: 1, x: 1, y: 1, nx: 0, ny: 0)))
    }

    @Test func aFirstSubscribeTakesASnapshotAndASecondResumesAfterTheLastDelivered() throws {
        var state = StreamState(events: [.began, .moved])
        let (first, gap) = state.subscribe(after: hello("a"))
        #expect(first == .subscribe(devices: nil, events: [.began, .moved], resumeAfter: nil))
        #expect(gap == nil)
        #expect(try accepts(&state, .snapshot(Snapshot(seq: 10, strokes: []))))
        #expect(try accepts(&state, moved(11)))
        #expect(try accepts(&state, moved(12)))
        let (second, noGap) = state.subscribe(after: hello("a", seq: 40))
        #expect(second == .subscribe(devices: nil, events: [.began, .moved], resumeAfter: 12))
        #expect(noGap == nil)
        #expect(state.replied(Reply.SubscribeResult(seq: 40, resumed: true)) == nil)
    }

    /// The daemon's numbers only increase and a resume starts after the last delivered: a number
    /// that goes back is not the protocol (it was dropped silently, leaving a stroke without its
    /// end).
    @Test func aSequenceNumberThatGoesBackIsAProtocolError() throws {
        var state = StreamState(resumeAfter: 5)
        for seq: UInt64 in [4, 5] {
            #expect(throws: StrokeClientError.self) { _ = try state.accept(moved(seq)) }
        }
        #expect(try accepts(&state, moved(6)))
        #expect(throws: StrokeClientError.self) { _ = try state.accept(moved(6)) }
        #expect(state.lastSeq == 6)
    }

    @Test func mergedMovesAccountForTheNumbersTheySkip() throws {
        var state = StreamState()
        _ = try state.accept(.snapshot(Snapshot(seq: 0, strokes: [])))
        _ = try state.accept(moved(1))
        _ = try state.accept(moved(4, merged: 2))
        #expect(state.unaccounted == 0)
        _ = try state.accept(moved(6))
        #expect(state.unaccounted == 1)
    }

    /// A hostile peer's numbers (adversary script 20): counted, saturating, never a trap.
    @Test func extremeSequenceNumbersAndMergeCountsDoNotTrap() throws {
        var state = StreamState()
        _ = try state.accept(.snapshot(Snapshot(seq: 0, strokes: [])))
        #expect(try accepts(&state, moved(.max)))
        #expect(state.unaccounted == .max)
        var other = StreamState()
        _ = try other.accept(.snapshot(Snapshot(seq: 0, strokes: [])))
        #expect(try accepts(&other, moved(3, merged: .max)))
        #expect(try accepts(&other, moved(4, merged: .max)))
        #expect(try accepts(&other, moved(5, merged: .min)))
        #expect(other.unaccounted == 0)  // held at .min by the second, then .min - .min
    }

    @Test func aResumePointTooOldIsAGap() throws {
        var state = StreamState()
        _ = state.subscribe(after: hello("a"))
        _ = try state.accept(.snapshot(Snapshot(seq: 3, strokes: [])))
        _ = try state.accept(moved(4))
        _ = state.subscribe(after: hello("a", seq: 9000))
        let gap = state.replied(Reply.SubscribeResult(seq: 9000, resumed: false, reason: "gapTooOld"))
        #expect(gap == Gap(reason: .gapTooOld, lastSeq: 4, instance: "a"))
        #expect(try accepts(&state, .snapshot(Snapshot(seq: 9000, strokes: []))))
        #expect(throws: StrokeClientError.self, "before the snapshot") { _ = try state.accept(moved(8999)) }
        #expect(try accepts(&state, moved(9001)))
    }

    @Test func aNewInstanceIsAGapAndStartsOver() throws {
        var state = StreamState()
        _ = state.subscribe(after: hello("a"))
        _ = try state.accept(.snapshot(Snapshot(seq: 0, strokes: [])))
        _ = try state.accept(moved(700))
        let (command, gap) = state.subscribe(after: hello("b", seq: 3))
        #expect(gap == Gap(reason: .restarted, lastSeq: 700, instance: "a"))
        #expect(command == .subscribe(devices: nil, events: nil, resumeAfter: nil))
        #expect(try accepts(&state, .snapshot(Snapshot(seq: 3, strokes: []))))
        #expect(try accepts(&state, moved(4)))  // numbers below the old instance's are new again
    }

    @Test func backoffGrowsToItsMaximum() throws {
        let backoff = Backoff(initial: 0.1, factor: 2, maximum: 0.5)
        #expect((1...5).map { backoff.delay(after: $0) } == [0.1, 0.2, 0.4, 0.5, 0.5])
    }
}

/// `state.accept(m)`, callable inside `#expect` (which cannot call a mutating method).
private func accepts(_ state: inout StreamState, _ message: ServerMessage) throws -> Bool { try state.accept(message) }
