import Foundation
import StrokeDaemon
import StrokeProtocol
import Testing

@testable import StrokeClient

/// The StrokeClient library against an in-process daemon: whole replays, requests, resuming
/// after a dropped connection, and a resume point too old.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StrokeClientTests {
    /// What `strokes replay` prints for `name`, as typed stroke messages.
    func transcript(_ name: String) throws -> [ServerMessage] {
        try replayTranscript(name).map { try ServerMessage(line: $0) }
    }

    func withoutSeq(_ m: ServerMessage) -> ServerMessage {
        guard case .stroke(var e) = m else { return m }
        e.seq = nil
        return .stroke(e)
    }

    /// Reads `count` stream messages (and any gaps) from `iterator`.
    func read(_ count: Int, from iterator: inout Subscription.Iterator) async throws -> [SubscriptionEvent] {
        var events: [SubscriptionEvent] = []
        var messages = 0
        while messages < count, let event = try await iterator.next() {
            events.append(event)
            if case .message(let m) = event, m.seq != nil { messages += 1 }
        }
        return events
    }

    /// The messages (gaps left out), with the stroke events' `seq` removed, as `strokes replay` prints them.
    func messagesWithoutSeq(_ events: [SubscriptionEvent]) -> [ServerMessage?] {
        events.map { event -> ServerMessage? in
            guard case .message(let m) = event else { return nil }
            return withoutSeq(m)
        }
    }

    /// The subscription's first event, which must be a snapshot (an issue is recorded if not).
    func firstSnapshot(_ iterator: inout Subscription.Iterator) async throws -> Snapshot? {
        guard case .message(.snapshot(let snapshot)) = try await iterator.next() else {
            Issue.record("the subscription did not start with a snapshot")
            return nil
        }
        return snapshot
    }

    func seqs(_ events: [SubscriptionEvent]) -> [UInt64] {
        events.compactMap { if case .message(let m) = $0 { m.seq } else { nil } }
    }

    @Test func subscriptionDeliversTheReplayTranscript() async throws {
        let expected = try transcript(TestDaemon.fourFingers)
        let d = try await TestDaemon()
        let client = try await StrokeClient.connect(path: d.path)
        #expect(client.hello.protocol == 1)
        var iterator = client.subscribe().makeAsyncIterator()
        guard case .message(.snapshot(let snapshot)) = try await iterator.next() else {
            Issue.record("the subscription did not start with a snapshot")
            return
        }
        try await d.advance()
        let events = try await read(expected.count, from: &iterator)
        #expect(messagesWithoutSeq(events) == expected.map(Optional.some))
        #expect(seqs(events) == Array(snapshot.seq + 1...snapshot.seq + UInt64(expected.count)))
        client.close()
        try await d.stop()
    }

    @Test func typedRequestsAndErrors() async throws {
        let d = try await TestDaemon()
        try await d.advance()
        let client = try await StrokeClient.connect(path: d.path)
        #expect(try await client.devices().map(\.kind) == [.touchscreen])
        let stats = try await client.stats()
        #expect(stats.daemon.devices == 1)
        let ended = Set(try transcript(TestDaemon.fourFingers).compactMap { m -> UInt64? in
            if case .stroke(let e) = m, e.kind == .ended { e.stroke } else { nil }
        })
        #expect(Set(try await client.historyAll().map(\.stroke)) == ended)
        #expect(try await client.live().strokes.allSatisfy { $0.state == .inProgress })
        await #expect(throws: StrokeClientError.self) { try await client.history(limit: -1) }
        do {
            _ = try await client.history(limit: -1)
        } catch let error as StrokeClientError {
            #expect(error.code == .daemonError)
            #expect(error.error?.error == .badArgument)
        }
        try await client.ping()  // the connection survives an error
        client.close()
        try await d.stop()
    }

    /// The connection drops mid-stream while the daemon goes on: the subscription reconnects and
    /// resumes after the last message it delivered, without a gap or a duplicate.
    @Test func droppedConnectionResumesWithoutLossOrDuplicates() async throws {
        let expected = try transcript(TestDaemon.tenFingers)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers)
        let client = try await StrokeClient.connect(path: d.path, bufferSize: 16)
        var iterator = client.subscribe(backoff: Backoff(initial: 0.01, attempts: 50)).makeAsyncIterator()
        guard let snapshot = try await firstSnapshot(&iterator) else { return }
        try await d.advance(300)
        var events = try await read(200, from: &iterator)
        client.dropConnection()  // with messages read ahead and not delivered: they come again
        try await d.advance(300)
        events += try await read(400, from: &iterator)
        client.dropConnection()
        try await d.advance()
        events += try await read(expected.count - 600, from: &iterator)
        #expect(!events.contains { if case .gap = $0 { true } else { false } })
        #expect(seqs(events) == Array(snapshot.seq + 1...snapshot.seq + UInt64(expected.count)))
        #expect(messagesWithoutSeq(events) == expected.map(Optional.some))
        #expect(try await client.stats().daemon.clients == 1)  // the dropped connections are gone
        client.close()
        try await d.stop()
    }

    /// A request made while the consumer has fallen behind returns: the reader waited on the
    /// full buffer, so the reply behind the stream was never read (found in the Python client by
    /// an adversary; the same design here). The stream then resumes without a gap or a duplicate.
    @Test func aRequestWhileTheConsumerIsBehindReturnsAndTheStreamResumes() async throws {
        let expected = try transcript(TestDaemon.tenFingers)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers)
        let client = try await StrokeClient.connect(path: d.path, bufferSize: 16)
        var iterator = client.subscribe(backoff: Backoff(initial: 0.01, attempts: 50)).makeAsyncIterator()
        guard let snapshot = try await firstSnapshot(&iterator) else { return }
        try await d.advance(300)  // hundreds of messages, none taken: the buffer holds 16
        try await Task.sleep(for: .milliseconds(300))
        let watchdog = Task {
            try await Task.sleep(for: .seconds(10))
            client.close()  // fails the waiting request instead of hanging the run
        }
        let stats = try? await client.stats()
        watchdog.cancel()
        guard stats != nil else {
            Issue.record("a request made while the consumer was behind did not return")
            return
        }
        var events = try await read(300, from: &iterator)
        while events.count < expected.count {
            try await d.advance(300)
            events += try await read(min(300, expected.count - events.count), from: &iterator)
        }
        #expect(!events.contains { if case .gap = $0 { true } else { false } })
        #expect(seqs(events) == Array(snapshot.seq + 1...snapshot.seq + UInt64(expected.count)))
        client.close()
        try await d.stop()
    }

    @Test func resumePointTooOldIsAGapThenASnapshot() async throws {
        var settings = Daemon.Settings()
        settings.resumeLimit = 16
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings)
        let client = try await StrokeClient.connect(path: d.path)
        var iterator = client.subscribe(backoff: Backoff(initial: 0.01, attempts: 50)).makeAsyncIterator()
        _ = try await iterator.next()  // the snapshot
        try await d.advance(100)
        let before = try await read(50, from: &iterator)
        client.dropConnection()
        try await d.advance(100)  // far more than 16 messages
        let gap = try await iterator.next()
        let next = try await iterator.next()
        #expect(gap == .gap(Gap(reason: .gapTooOld, lastSeq: seqs(before).last, instance: client.hello.instance)))
        let seq = try await d.onLoop { $0.hub.seq }
        guard case .message(.snapshot(let snapshot)) = next else {
            Issue.record("expected a snapshot after the gap, got \(String(describing: next))")
            return
        }
        #expect(snapshot.seq == seq)
        client.close()
        try await d.stop()
    }

    /// A daemon that is gone for good: goodbye, then the reconnection gives up after its attempts.
    @Test func reconnectingGivesUpAfterItsAttempts() async throws {
        let d = try await TestDaemon()
        let client = try await StrokeClient.connect(path: d.path)
        var iterator = client.subscribe(backoff: Backoff(initial: 0.01, attempts: 3)).makeAsyncIterator()
        _ = try await iterator.next()  // the snapshot
        try await d.stop()
        var last: SubscriptionEvent?
        do {
            while let event = try await iterator.next() { last = event }
            Issue.record("the subscription ended without an error")
        } catch let error as StrokeClientError {
            #expect(error.code == .connectionLost)
            #expect(error.message.hasPrefix("gave up reconnecting after 3 attempts"))
        }
        #expect(last == .message(.goodbye(Goodbye(reason: .shutdown))))
        client.close()
    }

    @Test func closingTheClientEndsItsSubscription() async throws {
        let d = try await TestDaemon()
        let client = try await StrokeClient.connect(path: d.path)
        var iterator = client.subscribe().makeAsyncIterator()
        _ = try await iterator.next()  // the snapshot
        client.close()
        await #expect(throws: StrokeClientError.self) { _ = try await iterator.next() }
        try await d.stop()
    }
}
