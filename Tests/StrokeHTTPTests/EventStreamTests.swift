import Foundation
import StrokeClient
import StrokeDaemon
import Testing

@Suite(.serialized) struct EventStreamTests {
    @Test func eventsStreamEachMessageWithItsSeqAsID() async throws {
        let d = try await HTTPTestDaemon()
        let (head, sse) = try d.events()
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream; charset=utf-8")
        let socket = try LineSocket(path: d.path)
        let socketHello = try #require(try socket.readLine(timeout: 5))
        try socket.send(#"{"request":"subscribe"}"#)
        #expect(try socket.readLine(timeout: 5)?.contains(#""request":"subscribe""#) == true)
        #expect(try socket.readLine(timeout: 5)?.contains(#""type":"snapshot""#) == true)

        let hello = try #require(try sse.next())
        #expect(hello.event == "hello")
        #expect(hello.id == nil)
        #expect(hello.data == socketHello)
        let reply = try #require(try sse.next())
        #expect(reply.event == "reply")
        #expect(reply.data.jsonObject["request"] as? String == "subscribe")
        let snapshot = try #require(try sse.next())
        #expect(snapshot.event == "snapshot")
        #expect(snapshot.id == "1")

        try await d.advance()
        let events = try sse.drain(quiet: 1)
        var socketLines: [String] = []
        while let line = try? socket.readLine(timeout: 0.5) { socketLines.append(line) }
        #expect(events.count > 100)
        #expect(events.map(\.data) == socketLines)
        for e in events {
            #expect(e.event == nil)
            #expect(e.id == String(e.data.jsonObject["seq"] as? Int ?? -1))
        }
        try await d.stop()
    }

    @Test func filtersAreQueryParameters() async throws {
        let d = try await HTTPTestDaemon()
        let (_, sse) = try d.events("/events?events=began,ended&devices=1")
        _ = try sse.next()  // hello
        let reply = try #require(try sse.next())
        #expect(reply.event == "reply")
        _ = try sse.next()  // snapshot
        let (_, none) = try d.events("/events?devices=7")
        for _ in 0..<3 { _ = try none.next() }
        try await d.advance()
        let types = Set(try sse.drain(quiet: 1).map { $0.data.jsonObject["type"] as? String ?? "" })
        #expect(types == ["began", "ended"])
        #expect(try none.drain(quiet: 0.3).isEmpty)
        try await d.stop()
    }

    @Test func lastEventIDResumesExactly() async throws {
        let d = try await HTTPTestDaemon()
        let (_, whole) = try d.events()
        let (_, first) = try d.events()
        for _ in 0..<3 {
            _ = try whole.next()
            _ = try first.next()
        }
        try await d.advance(10)
        let before = try first.drain(quiet: 0.5)
        let lastID = try #require(before.last?.id)
        first.client.hangUp()  // the connection drops, as a browser's does
        try await d.advance(10)
        // The header, as a browser's EventSource sends it on reconnection.
        let (_, resumed) = try d.events(headers: ["Last-Event-ID": lastID])
        #expect(try resumed.next()?.event == "hello")
        let reply = try #require(try resumed.next())
        #expect(reply.data.jsonObject["resumed"] as? Bool == true)
        try await d.advance()
        let after = try resumed.drain(quiet: 1)
        let all = try whole.drain(quiet: 0.5)
        #expect(!before.isEmpty && !after.isEmpty)
        #expect((before + after).map(\.data) == all.map(\.data))
        // The query parameter, for a page that opens a new EventSource itself.
        let (_, query) = try d.events("/events?lastEventId=\(lastID)")
        _ = try query.next()
        #expect(try query.next()?.data.jsonObject["resumed"] as? Bool == true)
        #expect(try query.drain(quiet: 0.5).map(\.data) == after.map(\.data))
        try await d.stop()
    }

    @Test func aGapTooOldGetsTheReasonAndASnapshot() async throws {
        var settings = Daemon.Settings()
        settings.resumeLimit = 8
        let d = try await HTTPTestDaemon(settings: settings)
        try await d.advance()
        let (_, sse) = try d.events(headers: ["Last-Event-ID": "3"])
        _ = try sse.next()
        let reply = try #require(try sse.next()).data.jsonObject
        #expect(reply["resumed"] as? Bool == false)
        #expect(reply["reason"] as? String == "gapTooOld")
        let snapshot = try #require(try sse.next())
        #expect(snapshot.event == "snapshot")
        let seq = try await d.onLoop { $0.hub.seq }
        #expect(snapshot.id == String(seq))
        try await d.stop()
    }

    @Test func anSSEClientThatNeverReadsIsCutLikeASocketClient() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(mergeAfter: 16, disconnectAfter: 64, disconnectAfterBytes: 64 << 10)
        let d = try await HTTPTestDaemon(recording: "01-wacom-dth2242-touchscreen-10finger.evemu", settings: settings)
        let c = try TCPClient(port: d.port, receiveBuffer: 4096)
        _ = try c.request("GET", "/events", port: d.port)
        let sse = SSEReader(client: c)
        for _ in 0..<3 { _ = try sse.next() }  // subscribed
        try await d.advance()
        let stats = try await d.onLoop { $0.stats }
        #expect(stats.slowClientsDisconnected == 1)
        #expect(stats.clients == 0)
        try await d.stop()
    }

    @Test func shutdownSaysGoodbyeAndEndsTheStream() async throws {
        let d = try await HTTPTestDaemon()
        let (_, sse) = try d.events()
        for _ in 0..<3 { _ = try sse.next() }
        try await d.advance(20)
        let daemon = d.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        var events: [SSEEvent] = []
        while let e = try sse.next() { events.append(e) }
        #expect(events.last?.event == "goodbye")
        #expect(events.last?.data.jsonObject["reason"] as? String == "shutdown")
        #expect(events.contains { $0.data.contains(#""reason":"shutdown""#) && $0.data.contains("cancelled") })
        #expect(sse.ended)
        try await d.stop()
    }
}
