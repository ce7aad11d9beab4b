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

    /// Connections the kernel holds for the daemon before it accepts them.
    static let backlog: Int32 = 256

    public let channel: Channel
    /// The path to remove at stop; nil for a socket systemd passed.
    public let ownedPath: String?
    /// The socket file as bound, to tell at stop whether it is still ours.
    private let identity: FileIdentity?

    private init(channel: Channel, ownedPath: String?, identity: FileIdentity? = nil) {
        self.channel = channel
        self.ownedPath = ownedPath
        self.identity = identity
    }

    /// Binds (or adopts the systemd socket) and starts accepting clients for `daemon`.
    public static func start(daemon: Daemon, options: Options, logger: Logger) async throws -> SocketServer {
        let bootstrap = ServerBootstrap(group: daemon.loop)
            .serverChannelOption(ChannelOptions.backlog, value: SocketServer.backlog)
            .serverChannelInitializer { channel in
                // Out of descriptors (EMFILE, ENFILE) or memory, accept fails at once and would be
                // retried at once: back off instead, and keep serving the connected clients.
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff { error in daemon.acceptFailed(error) })
                }
            }
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
        try removeStaleSocket(at: options.path)
        // Bound here and handed to NIO as a descriptor, so that NIO never knows the path: NIO
        // unlinks the path of a socket it bound when it closes it, which would remove the socket
        // of a daemon started on the same path after this one's file was removed. `stop()`
        // removes the file only if it is still the one bound here.
        let fd = try bindUnixSocket(path: options.path)
        let identity = FileIdentity(path: options.path)
        let channel: Channel
        do {
            channel = try await bootstrap.withBoundSocket(fd).get()
            // NIO listens on an adopted socket with its default backlog (128) before the backlog
            // option reaches it; listening again sets the backlog (the descriptor is NIO's now,
            // still open, on this same number).
            _ = listen(fd, SocketServer.backlog)
        } catch {
            // NIO closes the descriptor itself when it fails after adopting it; close it here only
            // if it is still open (at start-up nothing else can have been given its number).
            if fcntl(fd, F_GETFD) != -1 { close(fd) }
            unlinkIfSame(options.path, identity)
            throw error
        }
        do {
            do {
                try setPermissions(path: options.path, mode: options.mode, group: options.group)
            } catch where !options.groupRequired {
                logger.warning("socket group not set: \(error)")
                try setPermissions(path: options.path, mode: options.mode, group: nil)
            }
        } catch {
            try? await channel.close()
            unlinkIfSame(options.path, identity)
            throw error
        }
        logger.info("listening", metadata: ["socket": "\(options.path)", "mode": "\(String(options.mode, radix: 8))"])
        return SocketServer(channel: channel, ownedPath: options.path, identity: identity)
    }

    /// Stops accepting and removes the socket file this server created, if the file at its path
    /// is still that one (same device and inode): a daemon started after this one, on the same
    /// path after this one was gone, keeps its socket.
    public func stop() async {
        try? await channel.close()
        if let ownedPath { SocketServer.unlinkIfSame(ownedPath, identity) }
    }

    /// One daemon per socket: a socket that accepts a connection belongs to a running daemon and
    /// is refused (`inUse`); one that refuses it is stale and removed; anything that is not a
    /// socket is left alone (`notASocket`).
    public static func removeStaleSocket(at path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }  // nothing there
        guard st.st_mode & S_IFMT == S_IFSOCK else { throw SocketServerError.notASocket(path) }
        if socketAccepts(path) { throw SocketServerError.inUse(path) }
        unlink(path)
    }

    /// A Unix stream socket bound at `path` (not yet listening: NIO listens when it adopts it).
    /// `inUse` when another daemon bound the path between the stale check and this bind.
    static func bindUnixSocket(path: String) throws -> Int32 {
        guard var address = unixAddress(path) else { throw SocketServerError.system("bind \(path)", ENAMETOOLONG) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketServerError.system("socket", errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if bound != 0 {
            let e = errno
            close(fd)
            if e == EADDRINUSE { throw SocketServerError.inUse(path) }
            throw SocketServerError.system("bind \(path)", e)
        }
        return fd
    }

    /// Removes the socket file at `path` only if it is still the one this daemon bound.
    static func unlinkIfSame(_ path: String, _ identity: FileIdentity?) {
        if let identity, FileIdentity(path: path) == identity { unlink(path) }
    }

    static func unixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }

    /// Whether a connection to the Unix socket at `path` succeeds.
    public static func socketAccepts(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard var address = unixAddress(path) else { return false }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
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

/// A file's device and inode.
struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}

public enum SocketServerError: Error, CustomStringConvertible {
    case unknownGroup(String)
    case system(String, Int32)
    /// A running daemon accepts connections on the path.
    case inUse(String)
    /// Something that is not a socket is at the path.
    case notASocket(String)

    public var description: String {
        switch self {
        case .unknownGroup(let g): return "socket group '\(g)' does not exist"
        case .inUse(let p): return "\(p) is in use: another daemon accepts connections there (stop it first, or use --socket)"
        case .notASocket(let p): return "\(p) exists and is not a socket: not replacing it"
        case .system(let what, let e): return "\(what): \(String(cString: strerror(e)))"
        }
    }
}
