import Foundation
import Logging
import NIOPosix
import StrokeDaemon
import Testing

@Suite struct SocketPathTests {
    /// A path longer than `sun_path` holds is refused by name before anything is created.
    @Test func tooLongASocketPathIsAClearError() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let daemon = Daemon(loop: group.next(), settings: .init(), logger: Logger(label: "test"))
        let directory = "/tmp/strokes-" + String(repeating: "x", count: 120)
        let path = directory + "/strokes.sock"
        var options = SocketServer.Options(path: path)
        options.group = nil
        await #expect {
            _ = try await SocketServer.start(daemon: daemon, options: options, logger: Logger(label: "test"))
        } throws: { error in
            "\(error)" == "socket path too long (\(path.utf8.count) bytes, at most 107): \(path)"
        }
        #expect(!FileManager.default.fileExists(atPath: directory))
        try await group.shutdownGracefully()
    }
}
