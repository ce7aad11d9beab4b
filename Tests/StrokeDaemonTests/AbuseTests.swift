import Foundation
import StrokeClient
import StrokeDaemon
import Testing

/// Issue 11: what a careless or hostile local client can do to the daemon, on real sockets.
@Suite(.serialized) struct AbuseTests {
    /// Clients that subscribe and never read are disconnected, the bytes the daemon queues stay
    /// under the global cap the whole time, and a client that reads gets every message unmerged.
    @Test func neverReadingClientsAreDisconnectedAndQueuedBytesStayBounded() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(mergeAfter: 64, disconnectAfter: 512, disconnectAfterBytes: 256 << 10, totalBytes: 512 << 10)
        settings.closeGrace = .milliseconds(100)
        let d = try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings, looping: true)
        let stalled = try (0..<8).map { _ in try d.connect() }
        for c in stalled { _ = try c.subscribe() }
        let good = try d.connect()
        _ = try good.subscribe()
        let startSeq = try await d.onLoop { Int($0.hub.seq) }

        var received = 0
        var maxQueued = 0
        for _ in 0..<40 {
            try await d.advance(200)
            let (seq, queued) = try await d.onLoop { (Int($0.hub.seq), $0.stats.queuedBytes) }
            maxQueued = max(maxQueued, queued)
            let lines = try good.read(seq - startSeq - received)
            #expect(lines.allSatisfy { !$0.contains("\"merged\"") && !$0.contains("goodbye") })
            received += lines.count
        }
        let stats = try await d.onLoop { $0.stats }
        #expect(stats.slowClientsDisconnected == 8)
        #expect(stats.clients == 1)
        #expect(maxQueued <= 512 << 10)
        #expect(received == (try await d.onLoop { Int($0.hub.seq) }) - startSeq)
        // The stalled clients' streams end (with a goodbye when their buffers took it).
        for c in stalled {
            while try c.socket.readLine(timeout: 5) != nil {}
        }
        try await d.stop()
    }
}
