import Foundation
import InputCore
import Logging
import NIOCore
import NIOPosix
import StrokeClient
import StrokeDaemon
import StrokeProtocol
import StrokeRecording

/// A daemon in this process, serving a recording in manual mode (frames advance only when the
/// test says) on a real Unix socket in a fresh temporary directory.
final class TestDaemon: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let daemon: Daemon
    let server: SocketServer
    let source: ReplaySource
    let path: String
    let directory: String

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReplayTests/Fixtures/\(name)").path
    }

    static let fourFingers = "03-atmel-maxtouch-touchscreen-4finger-drag.evemu"
    static let tenFingers = "01-wacom-dth2242-touchscreen-10finger.evemu"

    convenience init(recording name: String = TestDaemon.fourFingers, settings: Daemon.Settings = .init(), looping: Bool = false)
        async throws
    {
        let recording = try RecordingReader.read(path: TestDaemon.fixture(name))
        try await self.init(recording: recording, name: name, settings: settings, looping: looping)
    }

    /// Serves `recording` (named `name`); logs to `logger` (warnings, to nowhere, when nil).
    init(recording: Recording, name: String, settings: Daemon.Settings = .init(), looping: Bool = false, logger: Logger? = nil)
        async throws
    {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-test-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/strokes.sock"
        let logger = logger ?? {
            var logger = Logger(label: "test")
            logger.logLevel = .warning
            return logger
        }()
        let loop = group.next()
        daemon = Daemon(loop: loop, settings: settings, logger: logger)
        var options = SocketServer.Options(path: path)
        options.group = nil
        server = try await SocketServer.start(daemon: daemon, options: options, logger: logger)
        let daemon = self.daemon
        source = try await loop.submit {
            let source = ReplaySource(daemon: daemon, recording: recording, path: name, speed: -1, loop: looping)
            try source.start()
            return source
        }.get()
    }

    /// Feeds `frames` frames (all that are left when nil) and waits until the daemon has.
    @discardableResult
    func advance(_ frames: Int? = nil) async throws -> Int {
        let source = self.source
        return try await daemon.loop.submit { source.advance(frames ?? source.stepCount) }.get()
    }

    func onLoop<T: Sendable>(_ body: @escaping @Sendable (Daemon) -> T) async throws -> T {
        let daemon = self.daemon
        return try await daemon.loop.submit { body(daemon) }.get()
    }

    func stop() async throws {
        let daemon = self.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        await server.stop()
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A connected client that has read the greeting.
    func connect() throws -> TestClient {
        let c = TestClient(try LineSocket(path: path))
        // Thrown, not a precondition: a helper's trap would end the whole test run, not fail one test.
        guard case .hello = try c.message() else { throw LineSocket.Error(message: "expected hello, got \(c.lines.last ?? "")") }
        return c
    }
}

/// A blocking test client: JSON objects in, lines out.
final class TestClient {
    let socket: LineSocket
    var lines: [String] = []

    init(_ socket: LineSocket) { self.socket = socket }

    func send(_ object: [String: Any]) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        try socket.send(String(decoding: data, as: UTF8.self))
    }

    /// The next line, parsed.
    func next(timeout: Double = 10) throws -> [String: Any] {
        guard let line = try socket.readLine(timeout: timeout) else { throw LineSocket.Error(message: "end of stream") }
        lines.append(line)
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw LineSocket.Error(message: "not an object: \(line)")
        }
        return object
    }

    /// Subscribes and returns the reply and the snapshot (or nil when resumed).
    func subscribe(_ extra: [String: Any] = [:]) throws -> (reply: [String: Any], snapshot: [String: Any]?) {
        var request: [String: Any] = ["id": 1, "request": "subscribe"]
        request.merge(extra) { $1 }
        try send(request)
        let reply = try next()
        guard reply["type"] as? String == "reply" else { throw LineSocket.Error(message: "expected reply, got \(reply)") }
        if reply["resumed"] as? Bool == true { return (reply, nil) }
        return (reply, try next())
    }

    func send(_ request: Request) throws { try socket.send(try request.line()) }

    /// The next line, decoded into the protocol's types.
    func message(timeout: Double = 10) throws -> ServerMessage {
        guard let line = try socket.readLine(timeout: timeout) else { throw LineSocket.Error(message: "end of stream") }
        lines.append(line)
        return try ServerMessage(line: line)
    }

    /// Subscribes and returns the reply and the snapshot (nil when resumed).
    func subscription(
        devices: [UInt32]? = nil, events: [Request.StreamType]? = nil, resumeAfter: UInt64? = nil
    ) throws -> (reply: Reply.SubscribeResult, snapshot: Snapshot?) {
        try send(Request(id: 1, .subscribe(devices: devices, events: events, resumeAfter: resumeAfter)))
        guard case .reply(let r) = try message(), case .subscribe(let reply) = r.result else {
            throw LineSocket.Error(message: "expected the subscribe reply, got \(lines.last ?? "")")
        }
        if reply.resumed == true { return (reply, nil) }
        guard case .snapshot(let snapshot) = try message() else {
            throw LineSocket.Error(message: "expected a snapshot, got \(lines.last ?? "")")
        }
        return (reply, snapshot)
    }

    /// The reply (or error) to `request`, skipping stream messages before it.
    func ask(_ request: Request) throws -> ServerMessage {
        try send(request)
        while true {
            let m = try message()
            switch m {
            case .reply, .error, .goodbye: return m
            case .hello, .snapshot, .stroke, .hover, .gesture, .deviceAdded, .deviceRemoved, .replayEnded, .unknown: continue
            }
        }
    }

    /// What the reply to `request` carries; throws when an error (or anything else) comes instead.
    func result(_ request: Request) throws -> Reply.Result {
        guard case .reply(let reply) = try ask(request) else {
            throw LineSocket.Error(message: "expected a reply to \(request.command.name), got \(lines.last ?? "")")
        }
        return reply.result
    }

    /// Every line that arrives until none has for `quiet` seconds (or the stream ends).
    func drain(quiet: Double = 0.5) throws -> [String] {
        var out: [String] = []
        while true {
            do {
                guard let line = try socket.readLine(timeout: quiet) else { break }
                lines.append(line)
                out.append(line)
            } catch let error as LineSocket.Error where error.timedOut {
                break
            }
        }
        return out
    }

    /// Reads `count` raw lines.
    func read(_ count: Int, timeout: Double = 10) throws -> [String] {
        var out: [String] = []
        for _ in 0..<count {
            guard let line = try socket.readLine(timeout: timeout) else { break }
            out.append(line)
        }
        return out
    }
}

extension String {
    /// The line without its `"seq":N,` (and `"merged":N,`) so it compares with `strokes replay`.
    var withoutSeq: String {
        replacingOccurrences(of: #","seq":\d+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #","merged":\d+"#, with: "", options: .regularExpression)
    }

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(utf8)) as? [String: Any]) ?? [:] }
}
