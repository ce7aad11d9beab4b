import Foundation
import StrokeClient
import StrokeProtocol
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The StrokeClient library against the `strokes` binary restarted under it, and against servers
/// that do not speak the protocol.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StrokeClientProcessTests {
    /// `strokes daemon --replay 01 --loop` on `socket`, once it accepts connections.
    func startDaemon(socket: String) throws -> Process {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = [
            "daemon", "--socket", socket, "--replay", CLI.fixture("01-wacom-dth2242-touchscreen-10finger.evemu"),
            "--speed", "4", "--loop", "--log-level", "warning",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<1000 {
            if !process.isRunning || (try? LineSocket(path: socket)) != nil { break }
            usleep(10_000)
        }
        return process
    }

    func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "strokes-client-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aRestartedDaemonIsAGapThenASnapshot() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/strokes.sock"
        let first = try startDaemon(socket: socket)
        var second: Process?
        defer {
            for p in [first, second].compactMap({ $0 }) where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        let client = try await StrokeClient.connect(path: socket)
        defer { client.close() }
        let firstInstance = client.hello.instance
        var iterator = client.subscribe(backoff: Backoff(initial: 0.02, maximum: 0.2, attempts: 200)).makeAsyncIterator()
        var events: [SubscriptionEvent] = []
        var afterGap = 0
        while afterGap < 100, let event = try await iterator.next() {
            events.append(event)
            if events.count == 100 {
                kill(first.processIdentifier, SIGTERM)
                #expect(waitForExit(first, seconds: 20))
                second = try startDaemon(socket: socket)
            }
            if events.contains(where: { if case .gap = $0 { true } else { false } }) { afterGap += 1 }
        }
        let at = try #require(events.firstIndex { if case .gap = $0 { true } else { false } })
        let before = events[..<at].compactMap { if case .message(let m) = $0 { m.seq } else { nil } }
        #expect(events[at - 1] == .message(.goodbye(Goodbye(reason: .shutdown))))
        #expect(events[at] == .gap(Gap(reason: .restarted, lastSeq: before.last, instance: firstInstance)))
        guard case .message(.snapshot(let snapshot)) = events[at + 1] else {
            Issue.record("expected a snapshot after the gap, got \(events[at + 1])")
            return
        }
        #expect(client.hello.instance != firstInstance)
        let after = events[(at + 2)...].compactMap { if case .message(let m) = $0 { m.seq } else { nil } }
        #expect(after == Array(snapshot.seq + 1...snapshot.seq + UInt64(after.count)))
        if case .message(.snapshot(let s)) = events[0] {
            #expect(before == Array(s.seq + 1...s.seq + UInt64(before.count)))
        } else {
            Issue.record("the subscription did not start with a snapshot")
        }
    }

    /// A Unix socket that runs `script` on every connection (then closes it), noting when each
    /// was accepted.
    final class FakeServer: @unchecked Sendable {
        let path: String
        let fd: Int32
        private let lock = NSLock()
        private var accepted: [ContinuousClock.Instant] = []

        /// Answers every connection with `bytes`, then holds it open a while.
        convenience init(path: String, bytes: [UInt8]) throws {
            try self.init(path: path) { connection in
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                usleep(500_000)
            }
        }

        init(path: String, script: @escaping @Sendable (Int32) -> Void) throws {
            self.path = path
            fd = boundUnixSocket(path)
            guard fd >= 0, listen(fd, 4) == 0 else { throw LineSocket.Error(message: "cannot listen on \(path)") }
            let listener = fd
            Thread { [self] in
                while true {
                    let connection = accept(listener, nil, nil)
                    if connection < 0 { return }
                    lock.withLock { accepted.append(.now) }
                    script(connection)
                    close(connection)
                }
            }.start()
        }

        /// When each connection was accepted.
        var connections: [ContinuousClock.Instant] { lock.withLock { accepted } }

        func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
            unlink(path)
        }
    }

    static let hello = Array(#"{"type":"hello","protocol":1,"daemon":"strokes 0.2.0","instance":"fake","seq":0,"features":["subscribe"],"maxLineLength":65536}"#.utf8) + [0x0a]

    /// Reads one request line from `connection` and answers it as a `subscribe` with a snapshot.
    static func answerSubscribe(_ connection: Int32) {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while recv(connection, &byte, 1, 0) == 1, byte != 0x0a { line.append(byte) }
        let request = String(decoding: line, as: UTF8.self)
        let id = request.firstRange(of: #""id":"#).map { request[$0.upperBound...].prefix { $0.isNumber } } ?? "null"
        let reply = Array(#"{"type":"reply","id":\#(id),"request":"subscribe","seq":0}"#.utf8) + [0x0a]
            + Array(#"{"type":"snapshot","seq":0,"strokes":[]}"#.utf8) + [0x0a]
        _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// A server that greets and closes every connection: each reconnection fails (its subscribe
    /// is never answered), is backed off and counted. The iterator reconnected at once, for ever
    /// (the Python client's finding in the third adversary round; the same design here).
    @Test func reconnectionsThatDoNotGetTheSubscriptionBackAreBackedOffAndCounted() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try FakeServer(path: directory + "/fake.sock") { connection in
            _ = Self.hello.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        defer { server.stop() }
        let client = try await StrokeClient.connect(path: server.path)
        defer { client.close() }
        var error: StrokeClientError?
        do {
            for try await _ in client.subscribe(backoff: Backoff(initial: 0.05, attempts: 3)) {}
        } catch let e as StrokeClientError {
            error = e
        }
        #expect(error?.code == .connectionLost)
        #expect(error?.message.contains("gave up reconnecting after 3 attempts") == true, "\(String(describing: error))")
        // Three subscribes that were not answered, the last two after 0.05 and 0.1 s; the first
        // on the connection `connect` made, or on a new one when the client had already seen the
        // server close that (its reader thread races the first subscribe).
        let connections = server.connections
        #expect((3...4).contains(connections.count), "\(connections.count) connections")
        if connections.count >= 3 {
            #expect(connections[connections.count - 3].duration(to: connections[connections.count - 1]) >= .milliseconds(140))
        }
    }

    /// A server that answers the subscribe and then closes, every time: each reconnection gets its
    /// subscription back, and each is lost at once. Such losses in a row wait longer each time.
    @Test func aServerThatAnswersTheSubscribeAndClosesIsNotReconnectedToInALoop() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try FakeServer(path: directory + "/fake.sock") { connection in
            _ = Self.hello.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            Self.answerSubscribe(connection)
        }
        defer { server.stop() }
        let client = try await StrokeClient.connect(path: server.path)
        let subscription = client.subscribe(backoff: Backoff(initial: 0.05, factor: 2, maximum: 2))
        let consumer = Task {
            var snapshots = 0
            do {
                for try await event in subscription {
                    if case .message(.snapshot) = event { snapshots += 1 }
                }
            } catch {}
            return snapshots
        }
        // Until four connections (waits of 0.05, 0.1 and 0.2 s between them), however long a
        // loaded machine takes to get there: what is judged is each wait, not a count in a time.
        let deadline = ContinuousClock.now + .seconds(20)
        while server.connections.count < 4 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        client.close()
        consumer.cancel()
        let snapshots = await consumer.value
        // Each reconnection subscribed, and came after at least its wait: not in a loop.
        let connections = server.connections
        #expect(connections.count >= 4, "\(connections.count) connections in 20 s")
        #expect(snapshots >= connections.count - 1)
        for i in connections.indices.dropLast() {
            let wait = Backoff(initial: 0.05, factor: 2, maximum: 2).delay(after: i + 1)
            #expect(connections[i].duration(to: connections[i + 1]) >= .milliseconds(Int64(wait * 900)), "connection \(i + 1)")
        }
    }

    func connectError(to bytes: [UInt8], maxLineLength: Int = 1 << 20) async throws -> StrokeClientError? {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try FakeServer(path: directory + "/fake.sock", bytes: bytes)
        defer { server.stop() }
        do {
            let client = try await StrokeClient.connect(path: server.path, maxLineLength: maxLineLength)
            client.close()
            return nil
        } catch let error as StrokeClientError {
            return error
        }
    }

    /// A second subscription on the connection starts with its own snapshot: what the first left
    /// unread, and what came before the new reply, was the first one's (with `resumeAfter`, it
    /// moved the position past what the resume then sent: lost as if delivered).
    @Test func aSecondSubscriptionStartsWithItsOwnSnapshot() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        @Sendable func line(_ text: String) -> [UInt8] { Array(text.utf8) + [0x0a] }
        @Sendable func removed(_ seqs: ClosedRange<Int>) -> [UInt8] { seqs.flatMap { line(#"{"type":"deviceRemoved","seq":\#($0),"device":1}"#) } }
        let server = try FakeServer(path: directory + "/fake.sock") { connection in
            func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            func request() -> String {
                var line: [UInt8] = []
                var byte: UInt8 = 0
                while recv(connection, &byte, 1, 0) == 1, byte != 0x0a { line.append(byte) }
                return String(decoding: line, as: UTF8.self)
            }
            send(Self.hello)
            _ = request()
            send(line(#"{"type":"reply","id":1,"request":"subscribe","seq":0}"#) + line(#"{"type":"snapshot","seq":0,"strokes":[]}"#) + removed(1...5))
            _ = request()
            // The first subscription's stream goes on until the daemon reads the new subscribe.
            send(removed(6...8) + line(#"{"type":"reply","id":2,"request":"subscribe","seq":8}"#) + line(#"{"type":"snapshot","seq":8,"strokes":[]}"#) + removed(9...9))
            usleep(500_000)
        }
        defer { server.stop() }
        let client = try await StrokeClient.connect(path: server.path)
        defer { client.close() }
        var first = client.subscribe(reconnect: false).makeAsyncIterator()
        #expect(try await first.next() == .message(.snapshot(Snapshot(seq: 0, strokes: []))))
        #expect(try await first.next() == .message(.deviceRemoved(DeviceRemoved(seq: 1, device: 1))))
        usleep(100_000)  // 2-5 read and waiting in the mailbox
        var second = client.subscribe(reconnect: false).makeAsyncIterator()
        #expect(try await second.next() == .message(.snapshot(Snapshot(seq: 8, strokes: []))))
        #expect(try await second.next() == .message(.deviceRemoved(DeviceRemoved(seq: 9, device: 1))))
    }

    @Test func garbageFromAServerIsAClearError() async throws {
        let ssh = try await connectError(to: Array("SSH-2.0-OpenSSH_9.2\r\n".utf8))
        #expect(ssh?.code == .protocolError)
        #expect(ssh?.message.contains("not the strokes protocol (not JSON: ") == true, "\(String(describing: ssh))")

        let wrongType = try await connectError(to: Array(#"{"type":"hello","protocol":"one"}"#.utf8) + [0x0a])
        #expect(wrongType?.code == .protocolError)
        #expect(wrongType?.message.contains("'protocol' has the wrong type") == true, "\(String(describing: wrongType))")

        let endless = try await connectError(to: [UInt8](repeating: 0x78, count: 5000), maxLineLength: 1000)
        #expect(endless?.code == .protocolError)
        #expect(endless?.message.contains("longer than 1000 bytes") == true)

        let refused = try await connectError(
            to: Array(#"{"type":"error","id":null,"error":"tooManyClients","message":"full"}"#.utf8) + [0x0a])
        #expect(refused?.code == .daemonError)
        #expect(refused?.error?.error == .tooManyClients)

        let silent = try await connectError(to: [])
        #expect(silent?.code == .connectionLost)
    }
}
