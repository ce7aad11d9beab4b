import Foundation
import Logging
import NIOCore
import NIOPosix
import StrokeClient
import StrokeDaemon
import StrokeHTTP
import StrokeRecording

/// A daemon in this process serving a recording in manual mode (frames advance only when the test
/// says), on a real Unix socket and a real HTTP listener on 127.0.0.1, port 0.
final class HTTPTestDaemon: @unchecked Sendable {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let daemon: Daemon
    let server: SocketServer
    let http: HTTPServer
    let source: ReplaySource
    let path: String
    let directory: String
    let port: Int

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ReplayTests/Fixtures/\(name)").path
    }

    static let fourFingers = "03-atmel-maxtouch-touchscreen-4finger-drag.evemu"

    init(
        recording name: String = HTTPTestDaemon.fourFingers, settings: Daemon.Settings = .init(),
        http configure: (inout HTTPConfiguration) -> Void = { _ in }, token: String? = nil, looping: Bool = false
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strokes-http-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        path = directory + "/strokes.sock"
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let loop = group.next()
        daemon = Daemon(loop: loop, settings: settings, logger: logger)
        var options = SocketServer.Options(path: path)
        options.group = nil
        server = try await SocketServer.start(daemon: daemon, options: options, logger: logger)
        var configuration = HTTPConfiguration(listen: .tcp(host: "127.0.0.1", port: 0))
        if let token {
            let file = directory + "/token"
            try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            configuration.tokenFile = file
        }
        configure(&configuration)
        http = try await HTTPServer.start(daemon: daemon, configuration: configuration, logger: logger)
        guard case .tcp(_, let port) = http.address else { fatalError("not TCP") }
        self.port = port
        let recording = try RecordingReader.read(path: HTTPTestDaemon.fixture(name))
        let daemon = self.daemon
        source = try await loop.submit {
            let source = ReplaySource(daemon: daemon, recording: recording, path: name, speed: -1, loop: looping)
            try source.start()
            return source
        }.get()
    }

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
        await http.stop()
        let daemon = self.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        await server.stop()
        try await group.shutdownGracefully()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func connect() throws -> TCPClient { try TCPClient(port: port) }

    /// A GET on a fresh connection.
    func get(_ target: String, headers: [String: String] = [:], method: String = "GET") throws -> HTTPResponse {
        try connect().get(target, headers: headers, method: method, port: port)
    }

    /// An SSE stream on a fresh connection, with the response head checked.
    func events(_ target: String = "/events", headers: [String: String] = [:]) throws -> (HTTPResponse, SSEReader) {
        let c = try connect()
        let head = try c.request("GET", target, headers: headers, port: port)
        return (head, SSEReader(client: c))
    }

    /// The Unix socket's client, greeting read.
    func socketClient() throws -> LineSocket {
        let s = try LineSocket(path: path)
        _ = try s.readLine(timeout: 5)
        return s
    }
}

extension String {
    var jsonObject: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(utf8)) as? [String: Any]) ?? [:] }
}
