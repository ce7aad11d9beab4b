import NIOCore
import StrokeDaemon
import Testing

/// `RequestPacing`: a client's requests are read at the pace of their replies' bytes, past a burst.
@Suite struct RequestPacingTests {
    let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    @Test func theBurstPassesThenEachRequestWaitsForItsBytes() {
        var p = RequestPacing(burst: 4000, bytesPerSecond: 1_000_000, minimumCharge: 100)
        #expect(p.charge(3000, at: start) == nil)
        #expect(p.charge(1000, at: start) == nil)  // the bucket is empty, not in debt
        // 500 bytes in debt at 1 byte per microsecond.
        #expect(p.charge(500, at: start) == .microseconds(500))
        #expect(p.waits == 1)
        // Waited out: the next 500 bytes are again 500 µs of debt.
        #expect(p.charge(500, at: start + .microseconds(500)) == .microseconds(500))
        #expect(p.waits == 2)
    }

    @Test func cheapRequestsPayTheMinimumAndTheBucketRefillsOnlyToTheBurst() {
        var p = RequestPacing(burst: 1000, bytesPerSecond: 1_000_000, minimumCharge: 100)
        for _ in 0..<10 { #expect(p.charge(1, at: start) == nil) }
        #expect(p.charge(1, at: start) == .microseconds(100))
        // An hour idle refills to the burst, not beyond it.
        let later = start + .hours(1)
        for _ in 0..<10 { #expect(p.charge(0, at: later) == nil) }
        #expect(p.charge(0, at: later) != nil)
    }

    @Test func oneReplyLargerThanTheBurstCostsAtMostTheBurst() {
        var p = RequestPacing(burst: 1000, bytesPerSecond: 1_000_000, minimumCharge: 1)
        #expect(p.charge(50_000_000, at: start) == nil)
        #expect(p.charge(1000, at: start) == .microseconds(1000))
    }
}

/// Pacing on a real socket: requests past the burst are answered later, every one of them, in
/// order, and a client that shuts down its writing side gets all its replies before its goodbye.
@Suite(.serialized) struct RequestPacingSocketTests {
    @Test func pacedRequestsAreAllAnsweredInOrderBeforeTheGoodbye() async throws {
        var settings = Daemon.Settings()
        // 4 pings at once, then one per 10 ms.
        settings.requestPacing = RequestPacing(burst: 4000, bytesPerSecond: 100_000, minimumCharge: 1000)
        let d = try await TestDaemon(settings: settings)
        let c = try d.connect()
        let count = 30
        var batch = ""
        for id in 1...count { batch += "{\"id\":\(id),\"request\":\"ping\"}\n" }
        batch += "{\"id\":\"s\",\"request\":\"stats\"}\n"
        try c.socket.sendRaw(Array(batch.utf8))
        _ = c.socket.shutdownWrite()
        for id in 1...count {
            let reply = try c.next()
            #expect(reply["type"] as? String == "reply" && reply["id"] as? Int == id, "\(reply)")
        }
        let stats = try c.next()
        let you = (stats["you"] as? [String: Any]) ?? [:]
        #expect(stats["id"] as? String == "s")
        #expect((you["paced"] as? Int ?? 0) >= count - 4, "\(you)")
        let goodbye = try c.next()
        #expect(goodbye["type"] as? String == "goodbye" && goodbye["reason"] as? String == "clientClosed", "\(goodbye)")
        try await d.stop()
    }
}
