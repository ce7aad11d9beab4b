import Foundation
import StrokeClient
import StrokeDaemon
import Testing

@Suite(.serialized) struct WebSocketTests {
    @Test func webSocketTranscriptEqualsTheUnixSocketsForAReplayedRecording() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        let socket = try LineSocket(path: d.path)
        let wsHello = try ws.frame().text
        let socketHello = try #require(try socket.readLine(timeout: 5))
        #expect(wsHello == socketHello)
        let subscribe = #"{"id":1,"request":"subscribe","events":["began","moved","ended","cancelled","deviceAdded"]}"#
        try ws.send(subscribe)
        try socket.send(subscribe)
        // Both subscribed (reply and snapshot read) before any frame is fed.
        var socketLines: [String] = []
        var wsLines: [String] = []
        for _ in 0..<2 {
            socketLines.append(try #require(try socket.readLine(timeout: 5)))
            wsLines.append(try ws.frame().text)
        }
        try await d.advance()
        let request = #"{"id":"x","request":"devices"}"#
        try ws.send(request)
        try socket.send(request)
        while let line = try? socket.readLine(timeout: 1) {
            socketLines.append(line)
        }
        wsLines += try ws.drain(quiet: 1)
        #expect(socketLines.count > 100)
        #expect(wsLines == socketLines)
        try await d.stop()
    }

    @Test func requestsRepliesErrorsPingsAndFragments() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        #expect(try ws.message()["type"] as? String == "hello")
        // A request laid out over several lines is still one request.
        try ws.send("{\"id\":2,\n\"request\":\"ping\"}")
        let pong = try ws.message()
        #expect(pong["type"] as? String == "reply")
        #expect(pong["id"] as? Int == 2)
        try ws.send("not json")
        #expect(try ws.message()["error"] as? String == "invalidJSON")
        // A WebSocket ping gets its pong.
        try ws.send(opcode: 9, Array("are you there".utf8))
        let f = try ws.frame()
        #expect(f.opcode == 10)
        #expect(f.text == "are you there")
        // A message in fragments is one request.
        try ws.send(opcode: 1, Array(#"{"id":3,"req"#.utf8), fin: false)
        try ws.send(opcode: 0, Array(#"uest":"ping"}"#.utf8), fin: true)
        #expect(try ws.message()["id"] as? Int == 3)
        // The client's close is answered with a close, then the connection ends.
        try ws.send(opcode: 8, [0x03, 0xE8])
        let close = try ws.frame()
        #expect(close.opcode == 8)
        #expect(close.payload == [0x03, 0xE8])
        #expect(ws.client.waitForClose(timeout: 5))
        try await d.stop()
    }

    /// Pings read together get one pong, the latest's (RFC 6455 §5.5.3): a pong per ping,
    /// written at once, let a client that pinged and never read make the daemon hold MBs of
    /// frames per connection (an adversary's finding).
    @Test func pingsReadTogetherGetOnePongForTheLatest() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        #expect(try ws.message()["type"] as? String == "hello")
        let pings = (0..<500).flatMap { WSClient.frame(opcode: 9, Array("p\($0)".utf8)) }
        try ws.client.send(pings + WSClient.frame(Array(#"{"id":7,"request":"ping"}"#.utf8)))
        var pongs: [String] = []
        while true {
            let f = try ws.frame()
            if f.opcode == 10 { pongs.append(f.text) }
            if f.opcode == 1 { #expect(f.text.contains(#""id":7"#)) }
            if pongs.last == "p499" { break }
        }
        // One per read of the client's frames: 3 KiB of pings take one to a few reads.
        #expect(pongs.count <= 10, "\(pongs.count) pongs")
        let numbers = pongs.map { Int($0.dropFirst())! }
        #expect(numbers == numbers.sorted())
        try await d.stop()
    }

    /// The protocol is JSON text frames: a binary frame is data the daemon cannot accept, 1003
    /// (RFC 6455 §7.4.1), then the connection closes. (Each was answered with an error, and a
    /// flood of them kept the event loop from the other clients.)
    @Test func aBinaryFrameClosesWith1003() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        #expect(try ws.message()["type"] as? String == "hello")
        try ws.send(opcode: 2, Array(#"{"request":"ping"}"#.utf8))
        let close = try ws.frame()
        #expect(close.opcode == 8)
        #expect(close.payload == [0x03, 0xEB])
        #expect(ws.client.waitForClose(timeout: 5))
        try await d.stop()
    }

    /// RFC 6455's failures: a reserved opcode and a close status no peer may send are protocol
    /// errors (1002), text that is not UTF-8 is 1007; each then closes the connection.
    @Test func framesRFC6455FailsAreRefusedWithTheirCode() async throws {
        let d = try await HTTPTestDaemon()
        for (opcode, payload, expected) in [
            (UInt8(3), [UInt8(0x7B)], [UInt8(0x03), 0xEA]),  // reserved data opcode: 1002
            (UInt8(1), [0xFF, 0xFE], [0x03, 0xEF]),  // text, not UTF-8: 1007
            (UInt8(8), [0x03, 0xED], [0x03, 0xEA]),  // close 1005, which no peer sends: 1002
        ] {
            let ws = try WSClient(port: d.port)
            #expect(try ws.message()["type"] as? String == "hello")
            try ws.send(opcode: opcode, payload)
            let close = try ws.frame()
            #expect(close.opcode == 8)
            #expect(close.payload == expected, "opcode \(opcode)")
            #expect(ws.client.waitForClose(timeout: 5))
        }
        try await d.stop()
    }

    /// A handshake whose key is not 16 bytes in base64 is no upgrade: 426.
    @Test func anUpgradeWithABadKeyIsRefused() async throws {
        let d = try await HTTPTestDaemon()
        #expect {
            _ = try WSClient(port: d.port, headers: ["Sec-WebSocket-Key": "c2hvcnQ="])
        } throws: { error in
            (error as? WSClient.WSRefused)?.status == 426
        }
        try await d.stop()
    }

    /// A reload of `maxLineLength` applies to WebSocket connections made after it, frames included:
    /// the frame limit is what the client's `hello` says (it was the value at the server's start).
    @Test func aReloadedLineLimitBoundsTheFramesOfLaterConnections() async throws {
        let d = try await HTTPTestDaemon()
        try await d.onLoop { daemon in
            var s = daemon.settings
            s.maxLineLength = 200_000
            daemon.reload(settings: s) { _ in .identity }
        }
        let ws = try WSClient(port: d.port)
        #expect(try ws.message()["maxLineLength"] as? Int == 200_000)
        let padding = String(repeating: "a", count: 100_000)
        try ws.send(#"{"id":1,"request":"ping","padding":"\#(padding)"}"#)
        let reply = try ws.message()
        #expect(reply["type"] as? String == "reply" && reply["id"] as? Int == 1, "\(reply)")
        try await d.stop()
    }

    /// A connection made before a reload and upgraded after it: its frames are held to the
    /// limit of when it was made, and its `hello` says that one (it said the reloaded one, so a
    /// frame within what the client was told got 1009, or one past it a `lineTooLong` line:
    /// an adversary's finding, under reloads racing connections).
    @Test func theHelloSaysTheLimitTheFramesAreHeldTo() async throws {
        let d = try await HTTPTestDaemon()
        let connection = try d.connect()
        try await Task.sleep(for: .milliseconds(300))  // accepted: its pipeline is made
        try await d.onLoop { daemon in
            var s = daemon.settings
            s.maxLineLength = 200_000
            daemon.reload(settings: s) { _ in .identity }
        }
        let ws = try WSClient(connected: connection, port: d.port)
        #expect(try ws.message()["maxLineLength"] as? Int == 65536)
        try? ws.send(Array(repeating: UInt8(ascii: "a"), count: 65537))
        let f = try ws.frame()
        #expect(f.opcode == 8)
        #expect(f.payload.prefix(2) == [0x03, 0xF1])  // 1009: message too big
        try await d.stop()
    }

    @Test func anOversizedFrameIsRefused() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        _ = try ws.message()
        try? ws.send(Array(repeating: UInt8(ascii: "a"), count: 65537))
        let f = try ws.frame()
        #expect(f.opcode == 8)
        #expect(f.payload.prefix(2) == [0x03, 0xF1])  // 1009: message too big
        #expect(ws.client.waitForClose(timeout: 5))
        let clients = try await d.onLoop { $0.stats.clients }
        #expect(clients == 0)
        try await d.stop()
    }

    /// Found by a black-box test: unmasked frames and frames with RSV bits were served.
    @Test(arguments: [(masked: false, rsv: UInt8(0)), (masked: true, rsv: UInt8(0x40)), (masked: true, rsv: UInt8(0x10))])
    func unmaskedFramesAndReservedBitsFailTheConnection(_ c: (masked: Bool, rsv: UInt8)) async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        _ = try ws.message()
        try ws.send(Array(#"{"id":1,"request":"ping"}"#.utf8), masked: c.masked, rsv: c.rsv)
        let f = try ws.frame()
        #expect(f.opcode == 8, "answered instead: \(f.text)")
        #expect(f.payload.prefix(2) == [0x03, 0xEA])  // 1002: protocol error
        #expect(ws.client.waitForClose(timeout: 5))
        try await d.stop()
    }

    @Test func aMessageInFragmentsBeyondTheLimitIsRefused() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        _ = try ws.message()
        let part = Array(repeating: UInt8(ascii: "a"), count: 40_000)
        try ws.send(opcode: 1, part, fin: false)
        try? ws.send(opcode: 0, part, fin: true)
        let f = try ws.frame()
        #expect(f.opcode == 8)
        #expect(f.payload.prefix(2) == [0x03, 0xF1])  // 1009: message too big
        #expect(ws.client.waitForClose(timeout: 5))
        try await d.stop()
    }

    @Test func aWebSocketClientThatNeverReadsIsCutLikeASocketClient() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(mergeAfter: 16, disconnectAfter: 64, disconnectAfterBytes: 64 << 10)
        let d = try await HTTPTestDaemon(recording: "01-wacom-dth2242-touchscreen-10finger.evemu", settings: settings)
        let ws = try WSClient(port: d.port, receiveBuffer: 4096)
        _ = try ws.message()
        try ws.send(#"{"id":1,"request":"subscribe"}"#)
        _ = try ws.message()  // the reply: subscribed
        try await d.advance()
        let stats = try await d.onLoop { $0.stats }
        #expect(stats.slowClientsDisconnected == 1)
        #expect(stats.clients == 0)
        try await d.stop()
    }

    /// As `StallTests` for the socket: a WebSocket client whose TCP connection takes nothing for
    /// `disconnectAfterStall` goes long before its queue would fill; a socket client reading
    /// beside it gets every message.
    @Test func aWebSocketClientThatReadsNothingForTheStallTimeIsDisconnected() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 100_000, disconnectAfter: 200_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30,
            disconnectAfterStall: .seconds(2))
        settings.closeGrace = .milliseconds(100)
        let d = try await HTTPTestDaemon(recording: "01-wacom-dth2242-touchscreen-10finger.evemu", settings: settings, looping: true)
        let stalled = try WSClient(port: d.port, receiveBuffer: 4096)
        _ = try stalled.message()
        try stalled.send(#"{"id":1,"request":"subscribe"}"#)
        _ = try stalled.message()
        let good = try d.socketClient()
        try good.send(#"{"id":1,"request":"subscribe"}"#)
        _ = try good.readLine(timeout: 5)
        _ = try good.readLine(timeout: 5)
        let startSeq = try await d.onLoop { Int($0.hub.seq) }
        var received = 0
        // Steps the reading client's socket holds (as `StallTests`): the stall clock, checked when
        // it is due, judges only the one that reads nothing.
        for _ in 0..<100 {
            try await d.advance(30)
            let seq = try await d.onLoop { Int($0.hub.seq) }
            while received < seq - startSeq, try good.readLine(timeout: 5) != nil { received += 1 }
            try await Task.sleep(for: .milliseconds(10))
        }
        for _ in 0..<100 where try await d.onLoop({ $0.stats.slowClientsDisconnected }) == 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let stats = try await d.onLoop { $0.stats }
        #expect(stats.slowClientsDisconnected == 1)
        #expect(stats.clients == 1)
        #expect(received == (try await d.onLoop { Int($0.hub.seq) }) - startSeq)
        try await d.stop()
    }

    /// A client cut for falling behind reads, once it reads again, its `goodbye`, then the close
    /// frame (1000) and the end of the connection; an SSE stream ends with the response's last
    /// chunk. Closed at once after the goodbye, the close frame and the last chunk went behind
    /// what the slow client had not read, and were dropped (an adversary's finding).
    @Test func aClientCutForFallingBehindGetsItsGoodbyeThenTheEnd() async throws {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(mergeAfter: 16, disconnectAfter: 64, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        let d = try await HTTPTestDaemon(recording: "01-wacom-dth2242-touchscreen-10finger.evemu", settings: settings, looping: true)
        let ws = try WSClient(port: d.port, receiveBuffer: 4096)
        _ = try ws.message()
        try ws.send(#"{"id":1,"request":"subscribe"}"#)
        let sseConnection = try TCPClient(port: d.port, receiveBuffer: 4096)
        _ = try sseConnection.request("GET", "/events", port: d.port)
        let sse = SSEReader(client: sseConnection)
        for _ in 0..<20 where try await d.onLoop({ $0.stats.slowClientsDisconnected }) < 2 {
            try await d.advance(300)
        }
        #expect(try await d.onLoop { $0.stats.slowClientsDisconnected } == 2)
        var frames: [WSClient.Frame] = []
        while frames.last?.opcode != 8 { frames.append(try ws.frame()) }
        let texts = frames.filter { $0.opcode == 1 }.map(\.text)
        #expect(texts.last == #"{"type":"goodbye","reason":"slowClient"}"#)
        #expect(frames.last?.payload.prefix(2) == [0x03, 0xE8])  // 1000: normal closure
        #expect(ws.client.waitForClose(timeout: 5))
        var events: [SSEEvent] = []
        while let e = try sse.next() { events.append(e) }
        #expect(events.last?.data == #"{"type":"goodbye","reason":"slowClient"}"#)
        #expect(sse.terminated)
        try await d.stop()
    }

    @Test func shutdownSaysGoodbyeOverWebSocketAndClosesIt() async throws {
        let d = try await HTTPTestDaemon()
        let ws = try WSClient(port: d.port)
        _ = try ws.message()
        try ws.send(#"{"id":1,"request":"subscribe"}"#)
        _ = try ws.message()  // reply
        _ = try ws.message()  // snapshot
        try await d.advance(20)
        let daemon = d.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        var last: [String: Any] = [:]
        var closeCode: [UInt8]?
        while true {
            let f = try ws.frame()
            if f.opcode == 8 {
                closeCode = Array(f.payload.prefix(2))
                break
            }
            last = f.text.jsonObject
        }
        #expect(last["type"] as? String == "goodbye")
        #expect(last["reason"] as? String == "shutdown")
        #expect(closeCode == [0x03, 0xE8])
        try await d.stop()
    }
}
