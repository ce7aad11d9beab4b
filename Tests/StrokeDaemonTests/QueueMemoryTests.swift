import NIOCore
import Testing

@testable import StrokeDaemon

/// What a client that falls behind holds is what its limits charge it (docs/protocol.md, "Slow
/// clients"): each queued message's line and the queue's record of it.
@Suite(.serialized) struct QueueMemoryTests {
    /// A queued message's record is a line's bytes and where `merged` goes, with the queue's own
    /// fields: a shared line is a reference, not a copy of the stream message (136 bytes a message
    /// when it was one).
    @Test func aQueuedMessagesRecordIsSmall() {
        #expect(Outgoing.recordBytes <= 64)
        #expect(Outgoing.charge(lineBytes: 200) == 200 + Outgoing.recordBytes)
    }

    /// A line of the client's own is charged its buffer (NIO's size, a power of two, up to a
    /// page; its line past one), the buffer's storage and the record: a reply to a `ping` is
    /// charged 64 + 96 + the record, not its 40 bytes and the record.
    @Test func aLineOfItsOwnIsChargedItsBuffer() {
        let ping = Outgoing.line(#"{"type":"reply","id":1,"request":"ping"}"#)
        #expect(ping.bytes.readableBytes == 41 && ping.bytes.capacity == 64)
        #expect(Outgoing.charge(own: ping.bytes) == 64 + Outgoing.bufferBytes + Outgoing.recordBytes)
        #expect(Outgoing.charge(own: ping.bytes) == 224)  // docs/protocol.md, "Slow clients"
        let page = Outgoing.line(String(repeating: "x", count: 5000))
        #expect(page.bytes.capacity == 8192)
        #expect(Outgoing.charge(own: page.bytes) == 5001 + Outgoing.bufferBytes + Outgoing.recordBytes)
    }

    /// A subscriber that reads nothing: the bytes its queue is charged are its lines' bytes plus
    /// one record per message held; `stats` reports them and what NIO holds for it.
    @Test func aStalledClientIsChargedItsLinesAndTheirRecords() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 100_000, disconnectAfter: 200_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings, looping: true)
        let stalled = try d.connect()
        _ = try stalled.subscribe()
        try await d.advance(6000)  // far more than the socket buffers hold
        let (count, charged, lines, outside, reported) = try await d.onLoop { daemon in
            var queue = daemon.clients.values.first!.queue
            let (count, charged, outside) = (queue.count, queue.bytes, queue.outside)
            var lines = 0
            while let e = queue.dequeue() { lines += e.message.bytes.readableBytes }
            return (count, charged, lines, outside, daemon.stats.queuedBytes)
        }
        #expect(count > 1000)
        #expect(charged == lines + count * Outgoing.recordBytes)
        // Besides the queue, what NIO holds: up to its high-water mark (64 KiB) and a batch.
        #expect(outside < 128 << 10)
        #expect(reported == charged + outside)
        try await d.stop()
    }

    /// A client that asks for `history` and reads nothing: what its socket did not take of the
    /// replies, in NIO's hands, counts in what it holds (the limits, `stats`' `queuedBytes`);
    /// once it reads everything it holds nothing. Reported 0 while NIO held it, before.
    @Test func theRestOfARepliesTheSocketDidNotTakeIsCharged() async throws {
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, looping: true)
        try await d.advance(3000)  // more than a history page of completed strokes
        let c = try d.connect()
        for id in 1...3 { try c.send(["id": id, "request": "history"]) }  // more than the socket holds
        var held = (queue: 0, all: 0, reported: 0)
        for _ in 0..<200 where held.all == 0 {
            try await Task.sleep(for: .milliseconds(20))
            held = try await d.onLoop { daemon in
                let client = daemon.clients.values.first!
                return (client.queue.bytes, client.currentHeldBytes(), daemon.stats.queuedBytes)
            }
        }
        #expect(held.all > held.queue)
        #expect(held.reported == held.all)
        var replies = 0
        while replies < 3, let line = try c.socket.readLine(timeout: 10) {
            if line.contains("\"type\":\"reply\"") { replies += 1 }
        }
        #expect(replies == 3)
        _ = try c.drain(quiet: 0.3)
        #expect(try await d.onLoop { $0.stats.queuedBytes } == 0)
        try await d.stop()
    }

    /// Queues dropped (clients cut for falling behind) give their memory back to the system: one
    /// trim for the burst (and one more for cuts closed after it), after the connections are
    /// closed; nothing is scheduled for a daemon whose clients let go of nothing (it stays idle:
    /// 0 wake-ups).
    @Test func droppedQueuesAreGivenBackOnceForABurst() async throws {
        var settings = Daemon.Settings()
        // Cut at 4000 messages held (about 1.3 MB each: past `trimAfterBytes` on its own).
        settings.queue = QueueLimits(mergeAfter: 4000, disconnectAfter: 4000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        settings.closeGrace = .milliseconds(100)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings, looping: true)
        let reader = try d.connect()
        _ = try reader.subscribe()
        try await d.advance(200)
        _ = try reader.drain(quiet: 0.2)
        #expect(try await d.onLoop { $0.memoryTrims } == 0)

        let stalled = try (0..<3).map { _ in try d.connect() }
        for c in stalled { _ = try c.subscribe() }
        var cut = 0
        for _ in 0..<40 where cut < 3 {
            try await d.advance(500)
            _ = try reader.drain(quiet: 0.05)
            cut = Int(try await d.onLoop { $0.stats.slowClientsDisconnected })
        }
        #expect(cut == 3)
        var trims: UInt64 = 0
        for _ in 0..<100 where trims == 0 {
            try await Task.sleep(for: .milliseconds(50))
            trims = try await d.onLoop { $0.memoryTrims }
        }
        // One more at most: for a cut that came after the first, whose connection was closed
        // after that trim. Then nothing, as nothing more is let go of.
        try await Task.sleep(for: .milliseconds(1500))
        let afterBurst = try await d.onLoop { $0.memoryTrims }
        #expect(afterBurst >= 1 && afterBurst <= 2)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await d.onLoop { $0.memoryTrims } == afterBurst)
        try await d.stop()
    }

    /// A client that fell behind and caught up: its queue drained, not dropped, and its memory is
    /// given back the same way.
    @Test func aQueueThatDrainsIsGivenBackToo() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 100_000, disconnectAfter: 200_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        settings.closeGrace = .milliseconds(100)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings, looping: true)
        let behind = try d.connect()
        _ = try behind.subscribe()
        try await d.advance(6000)
        let held = try await d.onLoop { $0.stats.queuedBytes }
        #expect(held > 2 << 20)
        #expect(try await d.onLoop { $0.memoryTrims } == 0)
        _ = try behind.drain(quiet: 1)  // catches up: everything read
        #expect(try await d.onLoop { $0.stats.queuedBytes } == 0)
        var trims: UInt64 = 0
        for _ in 0..<100 where trims == 0 {
            try await Task.sleep(for: .milliseconds(50))
            trims = try await d.onLoop { $0.memoryTrims }
        }
        #expect(trims == 1)
        #expect(try await d.onLoop { $0.stats.slowClientsDisconnected } == 0)
        try await d.stop()
    }
}
