import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The listening Unix socket: bound at a path (under `SocketLock`; mode and group set right after
/// bind, before it listens; the file removed at stop), or the socket systemd passed (`LISTEN_FDS`,
/// which systemd owns).
///
/// As a `Service`, it serves until graceful shutdown and then ends the daemon's clients before
/// it stops listening (see `run()`).
public final class SocketServer: Sendable {
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
    /// The socket file it bound (`OwnedUnixSocket`); nil for a socket systemd passed.
    private let owned: OwnedUnixSocket?
    /// The path to remove at stop; nil for a socket systemd passed.
    public var ownedPath: String? { owned?.path }
    private let daemon: Daemon
    private let logger: Logger

    private init(channel: Channel, owned: OwnedUnixSocket?, daemon: Daemon, logger: Logger) {
        self.channel = channel
        self.owned = owned
        self.daemon = daemon
        self.logger = logger
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
            .childChannelOption(ChannelOptions.recvAllocator, value: ClientHandler.readAllocator)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: ClientHandler.readsPerCycle)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 64 * 1024)
            )
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ClientHandler(daemon: daemon, writesDirectly: true))
                }
            }
        let passed: (fd: Int32, count: Int)?
        do {
            passed = try SystemdActivation.listenFDs()
        } catch {
            throw SocketServerError.system("the socket systemd passed (fd 3)", error)
        }
        if let (fd, count) = passed {
            // Only what strokes.socket passes: a listening Unix stream socket. A TCP socket (a
            // unit's `ListenStream=PORT`) would serve every stroke to the network with no check of
            // who connects (peers have no credentials there); anything else cannot be served.
            if let problem = SystemdActivation.problem(withListeningSocket: fd) {
                throw SocketServerError.passedSocket(problem)
            }
            let path = SystemdActivation.boundPath(of: fd)
            logger.info("using the socket systemd passed", metadata: ["fd": "\(fd)", "socket": "\(path ?? "unnamed")"])
            // Said, not silently done: the unit's socket wins over the configured path, and a
            // socket unit with several ListenStream= lines gets only its first served.
            if path != options.path {
                logger.notice("the configured socket path is not used: systemd passed its own socket", metadata: [
                    "configured": "\(options.path)"
                ])
            }
            if count > 1 {
                logger.warning("systemd passed \(count) sockets; only the first (fd 3) is served")
            }
            let channel = try await bootstrap.withBoundSocket(fd).get()
            return SocketServer(channel: channel, owned: nil, daemon: daemon, logger: logger)
        }
        let (owned, channel) = try await OwnedUnixSocket.listen(
            options, backlog: SocketServer.backlog, bootstrap: bootstrap, logger: logger)
        logger.info("listening", metadata: ["socket": "\(options.path)", "mode": "\(String(options.mode, radix: 8))"])
        return SocketServer(channel: channel, owned: owned, daemon: daemon, logger: logger)
    }

    /// Stops accepting and removes the socket file this server created, if the file at its path
    /// is still that one (same device and inode): a daemon started after this one, on the same
    /// path after this one was gone, keeps its socket.
    public func stop() async {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
        } catch {
            logger.warning("closing the listening socket: \(error)")
        }
        owned?.release(logger: logger)
    }

    /// One daemon per socket: a socket that accepts a connection belongs to a running daemon and
    /// is refused (`inUse`); one that refuses it is stale and removed; anything that is not a
    /// socket is left alone (`notASocket`).
    public static func removeStaleSocket(at path: String) throws {
        var st = stat()
        do {
            _ = try Syscall.retrying { lstat(path, &st) }
        } catch .noSuchFileOrDirectory {
            return  // nothing there
        } catch {
            throw SocketServerError.system("stat \(path)", error)
        }
        guard st.st_mode & S_IFMT == S_IFSOCK else { throw SocketServerError.notASocket(path) }
        if socketAccepts(path) { throw SocketServerError.inUse(path) }
        do {
            _ = try Syscall.retrying { unlink(path) }
        } catch .noSuchFileOrDirectory {
            // Removed meanwhile (by the daemon that was stopping there): what was wanted.
        } catch {
            throw SocketServerError.system("remove the stale socket \(path)", error)
        }
    }

    /// Whether a connection to the Unix socket at `path` succeeds.
    public static func socketAccepts(_ path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path: path), let fd = try? UnixSocket.connect(to: address) else {
            return false
        }
        try? Syscall.closeDescriptor(fd)  // a probe's connection, never used
        return true
    }
}

public enum SocketServerError: Error, CustomStringConvertible {
    case unknownGroup(String)
    case system(String, Errno)
    case pathTooLong(UnixSocketAddress.PathTooLong)
    /// A running daemon accepts connections on the path, or (`locked`) holds its `SocketLock`.
    case inUse(String, locked: Bool = false)
    /// Something that is not a socket is at the path.
    case notASocket(String)
    /// The path is empty or ends with `/`.
    case notAFileName(String)
    /// What systemd passed (fd 3) is not a listening Unix stream socket: why.
    case passedSocket(String)
    /// `PATH.lock` is not the daemon's own regular file: what it is.
    case foreignLock(String, String)

    public var description: String {
        switch self {
        case .unknownGroup(let g): return "socket group '\(g)' does not exist"
        case .inUse(let p, false): return "\(p) is in use: another daemon accepts connections there (stop it first, or use --socket)"
        case .inUse(let p, true): return "\(p) is in use: another daemon holds \(p).lock (stop it first, or use --socket)"
        case .notASocket(let p): return "\(p) exists and is not a socket: not replacing it"
        case .notAFileName(let p): return "socket path '\(p)' names no file (empty, or a directory: it ends with '/')"
        case .system(let what, let e): return "\(what): \(e)"
        case .pathTooLong(let e): return "\(e)"
        case .foreignLock(let p, let what): return "\(p) is \(what), not this user's lock file: not trusting it (remove it, or use --socket)"
        case .passedSocket(let why): return "the socket systemd passed (fd 3) \(why); strokes.socket passes a Unix stream socket (ListenStream=PATH)"
        }
    }
}

extension SocketServer: Service {
    /// Serves until graceful shutdown (or cancellation), then, in this order: every live stroke
    /// is cancelled (`shutdown`) and delivered, each client gets what it had queued and `goodbye`
    /// and is closed, the listener is closed and the socket file removed. The sources, later in
    /// the service group, have stopped before this begins.
    public func run() async throws {
        try? await gracefulShutdown()  // thrown only for cancellation, which ends the same way
        let daemon = self.daemon
        try await daemon.loop.flatSubmit { daemon.shutdown() }.get()
        await stop()
    }
}
