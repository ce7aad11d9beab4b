import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// The listening Unix socket: bound at a path (mode and group set right after bind, the file
/// removed at stop), or the socket systemd passed (`LISTEN_FDS`, which systemd owns).
public final class SocketServer: @unchecked Sendable {
    public struct Options: Sendable {
        public var path: String
        public var mode: mode_t = 0o660
        /// Group name or number; nil keeps the daemon's group.
        public var group: String? = nil
        /// When false, a group that cannot be set is a warning instead of an error.
        public var groupRequired = true
        public init(path: String) { self.path = path }
    }

    public let channel: Channel
    /// The path to remove at stop; nil for a socket systemd passed.
    public let ownedPath: String?

    private init(channel: Channel, ownedPath: String?) {
        self.channel = channel
        self.ownedPath = ownedPath
    }

    /// Binds (or adopts the systemd socket) and starts accepting clients for `daemon`.
    public static func start(daemon: Daemon, options: Options, logger: Logger) async throws -> SocketServer {
        let bootstrap = ServerBootstrap(group: daemon.loop)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 64 * 1024)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ClientHandler(daemon: daemon))
                }
            }
        if let fd = SystemdActivation.listenFD() {
            logger.info("using the socket systemd passed", metadata: ["fd": "\(fd)"])
            let channel = try await bootstrap.withBoundSocket(fd).get()
            return SocketServer(channel: channel, ownedPath: nil)
        }
        let directory = options.path.lastIndex(of: "/").map { String(options.path[..<$0]) } ?? ""
        if !directory.isEmpty { mkdir(directory, 0o755) }
        let channel = try await bootstrap.bind(unixDomainSocketPath: options.path, cleanupExistingSocketFile: true).get()
        do {
            do {
                try setPermissions(path: options.path, mode: options.mode, group: options.group)
            } catch where !options.groupRequired {
                logger.warning("socket group not set: \(error)")
                try setPermissions(path: options.path, mode: options.mode, group: nil)
            }
        } catch {
            try? await channel.close()
            unlink(options.path)
            throw error
        }
        logger.info("listening", metadata: ["socket": "\(options.path)", "mode": "\(String(options.mode, radix: 8))"])
        return SocketServer(channel: channel, ownedPath: options.path)
    }

    /// Stops accepting and removes the socket file this server created.
    public func stop() async {
        try? await channel.close()
        if let ownedPath { unlink(ownedPath) }
    }

    static func setPermissions(path: String, mode: mode_t, group: String?) throws {
        if let group {
            guard let gid = resolveGroup(group) else { throw SocketServerError.unknownGroup(group) }
            guard chown(path, uid_t.max, gid) == 0 else { throw SocketServerError.system("chown \(path) to group \(group)", errno) }
        }
        guard chmod(path, mode) == 0 else { throw SocketServerError.system("chmod \(path)", errno) }
    }

    static func resolveGroup(_ name: String) -> gid_t? {
        if let n = gid_t(name) { return n }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}

public enum SocketServerError: Error, CustomStringConvertible {
    case unknownGroup(String)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .unknownGroup(let g): return "socket group '\(g)' does not exist"
        case .system(let what, let e): return "\(what): \(String(cString: strerror(e)))"
        }
    }
}
