import Foundation
import NIOCore
import StrokeClient
import StrokeProtocol
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import StrokeDaemon

/// Unix-socket clients are written to with `send` on their socket's descriptor, found by its
/// cookie (`DirectSocket`); what the socket does not take goes through NIO until NIO has written
/// it (`ClientConnection.writeDirectly`).
@Suite(.serialized) struct DirectWriteTests {
    /// Each client's descriptor is its own socket: a wrong one would send one client's lines to
    /// another (or to a file).
    @Test func eachUnixClientIsWrittenToItsOwnSocket() async throws {
        let d = try await TestDaemon()
        let clients = try (0..<4).map { _ in try d.connect() }
        let matches = try await d.onLoop { daemon in
            daemon.clients.values.map { client -> Bool in
                guard let fd = client.descriptor, let cookie = DirectSocket.cookie(of: fd) else { return false }
                let channelCookie: UInt64? = SocketOption.read(client.channel, DirectSocket.cookieOption)
                return cookie == channelCookie
            }
        }
        #expect(matches == [true, true, true, true])
        for (index, c) in clients.enumerated() {
            try c.send(["id": 100 + index, "request": "ping"])
        }
        for (index, c) in clients.enumerated() {
            #expect(try c.next()["id"] as? Int == 100 + index)
        }
        let direct = try await d.onLoop { daemon in daemon.clients.values.map(\.sentDirectly).min() ?? 0 }
        #expect(direct >= 2)  // the greeting and the reply
        try await d.stop()
    }

    /// A subscriber that keeps up gets each frame's lines, only those its subscription wants, in
    /// one `send` straight from the frame (`ClientConnection.sendAtOnce`), nothing through NIO,
    /// byte for byte what `strokes replay` prints.
    @Test func aClientThatKeepsUpGetsEachFrameInOneSend() async throws {
        let d = try await TestDaemon()
        let c = try d.connect()
        _ = try c.subscribe(["events": ["began", "ended"]])
        let expected = try replayTranscript(TestDaemon.fourFingers).filter {
            $0.hasPrefix("{\"type\":\"began\"") || $0.hasPrefix("{\"type\":\"ended\"")
        }
        let counters = { @Sendable (daemon: Daemon) in
            daemon.clients.values.first.map { ($0.sent, $0.sentDirectly, $0.sentThroughNIO) } ?? (0, 0, 0)
        }
        let (sent0, direct0, _) = try await d.onLoop(counters)
        var (sent, frames) = (sent0, UInt64(0))
        var lines: [String] = []
        while try await d.advance(1) == 1 {
            let (now, _, _) = try await d.onLoop(counters)
            if now > sent { frames += 1 }
            lines += try c.read(Int(now - sent))
            sent = now
        }
        let (_, direct, throughNIO) = try await d.onLoop(counters)
        #expect(frames > 1)
        #expect(direct - direct0 == frames)
        #expect(throughNIO == 0)
        #expect(lines.map(\.withoutSeq) == expected)
        try await d.stop()
    }

    /// A subscriber that reads nothing while the whole ten-finger recording is streamed: its
    /// socket fills, a batch is cut, the rest goes through NIO; once it reads, it gets every line
    /// in order, byte for byte what `strokes replay` prints, and direct writes resume.
    @Test func aStreamCutByAFullSocketArrivesWholeAndInOrder() async throws {
        let d = try await DirectWriteTests.tenFingersNeverMerged()
        let c = try d.connect()
        _ = try c.subscribe()
        try await d.advance()
        let throughNIO = try await d.onLoop { daemon in daemon.clients.values.first?.sentThroughNIO ?? 0 }
        #expect(throughNIO > 0)
        let expected = try replayTranscript(TestDaemon.tenFingers)
        let lines = try c.read(expected.count)
        #expect(lines.map { $0.json["seq"] as? Int ?? -1 } == Array(2..<(2 + expected.count)))
        #expect(lines.map(\.withoutSeq) == expected)
        let before = try await d.onLoop { daemon in daemon.clients.values.first?.sentDirectly ?? 0 }
        try c.send(["id": 1, "request": "ping"])
        #expect(try c.next()["id"] as? Int == 1)
        let after = try await d.onLoop { daemon in daemon.clients.values.first?.sentDirectly ?? 0 }
        #expect(after == before + 1)
        try await d.stop()
    }

    /// A client that pipelines requests and reads nothing: once its socket is full, NIO holds the
    /// rest of one write, and the replies after it go to NIO in batches of `batchBytes` (charged),
    /// waiting in the client's queue meanwhile, rather than each as a write of its own (NIO took
    /// 1 600 of them, up to 64 KiB of lines, with a promise each: an adversary's finding). Once
    /// the client reads, every reply arrives, in order.
    @Test func repliesWaitInTheQueueWhileNIOHoldsARest() async throws {
        let d = try await TestDaemon()
        let c = try d.connect()
        let count = 3000
        let pings = (1...count).map { #"{"id":\#($0),"request":"ping"}"# }.joined(separator: "\n") + "\n"
        try c.socket.sendRaw(Array(pings.utf8))
        var held = (queued: 0, throughNIO: UInt64(0))
        for _ in 0..<500 where held.queued < 500 {
            try await Task.sleep(for: .milliseconds(10))
            held = try await d.onLoop { daemon in
                let client = daemon.clients.values.first!
                return (client.queue.count, client.sentThroughNIO)
            }
        }
        #expect(held.queued >= 500)
        #expect(held.throughNIO < 100, "\(held.throughNIO) writes handed to NIO")
        var ids: [Int] = []
        while ids.count < count { ids.append(try c.next()["id"] as? Int ?? -1) }
        #expect(ids == Array(1...count))
        try await d.stop()
    }

    /// The order of the bytes across the hand-over: the client makes room in its socket and a
    /// line is sent to it in the same turn of the event loop, before NIO can write what it holds.
    /// That line must go behind NIO's bytes, not into the room (where it would land in the middle
    /// of the stream, or of a line).
    @Test func nothingIsSentDirectlyWhileNIOHoldsBytes() async throws {
        let d = try await DirectWriteTests.tenFingersNeverMerged()
        let fd = try UnixSocket.connect(to: UnixSocketAddress(path: d.path))
        defer { try? Syscall.closeDescriptor(fd) }
        var received: [UInt8] = []
        let subscribe = Array(#"{"id":1,"request":"subscribe"}"#.utf8) + [0x0A]
        #expect(subscribe.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } == subscribe.count)
        var tv = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        // The greeting, the reply and the snapshot: subscribed before the stream starts.
        var greeting: [UInt8] = []
        while greeting.count(where: { $0 == 0x0A }) < 3, let bytes = DirectWriteTests.receive(fd, 0) { greeting += bytes }
        #expect(String(decoding: greeting, as: UTF8.self).contains(#""type":"snapshot""#))
        try await d.advance()
        let (heldBefore, marker, room) = try await d.onLoop { daemon -> (Int, String, [UInt8]) in
            let client = daemon.clients.values.first!
            let held = client.sentThroughNIO
            // Make room in the socket, then send, all in this one turn of the loop.
            var room: [UInt8] = []
            while let bytes = DirectWriteTests.receive(fd, Int32(MSG_DONTWAIT)) { room += bytes }
            let marker = ProtocolError(.badArgument, "marker", id: "\"marker\"").json
            daemon.send(marker, to: client)
            return (Int(held), marker, room)
        }
        received = room
        #expect(heldBefore > 0)
        // Everything else, until the marker's line.
        let markerLine = Array(marker.utf8) + [0x0A]
        while !received.ends(with: markerLine), let bytes = DirectWriteTests.receive(fd, 0) { received += bytes }
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.last == marker)
        let stream = lines.filter { $0.hasPrefix("{\"type\":\"began\"") || $0.hasPrefix("{\"type\":\"moved\"") || $0.hasPrefix("{\"type\":\"ended\"") }
        let expected = try replayTranscript(TestDaemon.tenFingers).filter {
            $0.hasPrefix("{\"type\":\"began\"") || $0.hasPrefix("{\"type\":\"moved\"") || $0.hasPrefix("{\"type\":\"ended\"")
        }
        #expect(stream.map(\.withoutSeq) == expected)
        try await d.stop()
    }
}

extension DirectWriteTests {
    /// The ten-finger recording served to clients whose moves are never merged and who are never
    /// disconnected for falling behind: every line must arrive.
    fileprivate static func tenFingersNeverMerged() async throws -> TestDaemon {
        var settings = Daemon.Settings()
        settings.queue = QueueLimits(
            mergeAfter: 1_000_000, disconnectAfter: 1_000_000, disconnectAfterBytes: 1 << 30, totalBytes: 1 << 30)
        return try await TestDaemon(recording: TestDaemon.tenFingers, settings: settings)
    }

    /// What one `recv` gives; nil at the end of the stream or when nothing is there (`MSG_DONTWAIT`).
    fileprivate static func receive(_ fd: Int32, _ flags: Int32) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, flags) }
        return n > 0 ? Array(chunk.prefix(n)) : nil
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
