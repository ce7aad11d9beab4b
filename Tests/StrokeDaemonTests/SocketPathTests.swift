import Foundation
import Logging
import NIOPosix
import StrokeDaemon
import SystemSupport
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

@Suite struct PassedSocketTests {
    /// What the daemon logs for a socket systemd passed: the path it is bound to, so that a
    /// configured path it does not use can be named.
    @Test func theBoundPathOfAPassedSocketIsRead() throws {
        let path = "/tmp/strokes-bound-\(getpid()).sock"
        unlink(path)
        defer { unlink(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        #expect(SystemdActivation.boundPath(of: fd) == nil)  // not bound yet
        let bound = try UnixSocketAddress(path: path).withSockaddr { bind(fd, $0, $1) }
        try #require(bound == 0)
        #expect(SystemdActivation.boundPath(of: fd) == path)
        #expect(SystemdActivation.boundPath(of: -1) == nil)
    }
}
