import NIOCore
import Testing

@testable import StrokeDaemon

/// What NIO buffers for a client it writes for (SSE here: each line framed on the way out) is
/// part of what the client holds: its limits and `stats`' `queuedBytes` count it (docs/protocol.md,
/// "Slow clients"). Counted 0 before.
@Suite(.serialized) struct EventStreamMemoryTests {
    @Test func whatNIOBuffersForAnEventStreamIsCharged() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 100_000, disconnectAfter: 200_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        let d = try await HTTPTestDaemon(recording: "01-wacom-dth2242-touchscreen-10finger.evemu", settings: settings, looping: true)
        let (_, sse) = try d.events()
        for _ in 0..<3 { _ = try sse.next() }  // hello, reply, snapshot; then it reads nothing
        try await d.advance(4000)  // far more than the socket buffers hold
        let (queued, held, buffered, reported) = try await d.onLoop { daemon in
            let client = daemon.clients.values.first!
            let buffered = (try? client.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? -1
            return (client.queue.bytes, client.currentHeldBytes(), buffered, daemon.stats.queuedBytes)
        }
        #expect(queued > 0)
        #expect(buffered > 0)
        #expect(held == queued + buffered)
        #expect(reported == held)
        try await d.stop()
    }
}
