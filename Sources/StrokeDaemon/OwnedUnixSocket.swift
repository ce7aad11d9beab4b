import Logging
import NIOCore
import NIOPosix
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket file a daemon owns at a path, for as long as it serves there: the client socket
/// (`SocketServer`) and the HTTP listener's Unix socket alike.
///
/// Taken in this order: `PATH.lock` (`SocketLock`: of two daemons started together, one gets the
/// path); a stale file replaced, a live one refused (`inUse`); bound here and handed to NIO as a
/// descriptor, so that NIO never knows the path (NIO unlinks the path of a socket it bound when it
/// closes it, which would remove the socket of a daemon started on the same path after this one's
/// file was removed); group and mode set before it listens (a bound socket that does not listen
/// refuses every connection, so no peer ever connects under the umask's mode). `release` removes
/// the file only if it is still the one bound here, then the lock.
public final class OwnedUnixSocket: Sendable {
    public let path: String
    /// The socket file as bound, to tell at release whether it is still ours.
    private let identity: FileIdentity?
    private let lock: SocketLock

    private init(path: String, identity: FileIdentity?, lock: SocketLock) {
        self.path = path
        self.identity = identity
        self.lock = lock
    }

    /// Binds a socket at `options.path` as above and has `bootstrap` adopt it, listening with
    /// `backlog`; returns it with its channel.
    public static func listen(
        _ options: SocketServer.Options, backlog: Int32, bootstrap: ServerBootstrap, logger: Logger
    ) async throws -> (socket: OwnedUnixSocket, channel: Channel) {
        // A file name, not a directory's: "" bound nothing (and locked ".lock" in the working
        // directory), "dir/" made the directory, then found it was not a socket.
        guard !options.path.isEmpty, !options.path.hasSuffix("/") else { throw SocketServerError.notAFileName(options.path) }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: options.path)
        } catch {
            throw SocketServerError.pathTooLong(error)
        }
        let directory = options.path.lastIndex(of: "/").map { String(options.path[..<$0]) } ?? ""
        if !directory.isEmpty { try makeDirectory(directory) }
        // Released by `release()`, or here when this fails (the lock goes with its last reference).
        let lock = try SocketLock.acquire(for: options.path)
        try SocketServer.removeStaleSocket(at: options.path)
        let fd = try bindUnixSocket(address)
        let identity = FileIdentity(path: options.path)
        do {
            do {
                try setPermissions(path: options.path, mode: options.mode, group: options.group)
            } catch where !options.groupRequired {
                logger.warning("socket group not set: \(error)", metadata: ["socket": "\(options.path)"])
                try setPermissions(path: options.path, mode: options.mode, group: nil)
            }
        } catch {
            try? Syscall.closeDescriptor(fd)  // never listened on: nothing to lose
            unlinkIfSame(options.path, identity, logger: logger)
            throw error
        }
        let channel: Channel
        do {
            channel = try await bootstrap.withBoundSocket(fd).get()
            // NIO listens on an adopted socket with its default backlog (128) before the backlog
            // option reaches it; listening again sets the backlog (the descriptor is NIO's now,
            // still open, on this same number).
            do {
                _ = try Syscall.retrying { Glibc.listen(fd, backlog) }
            } catch {
                try? await channel.close()
                throw SocketServerError.system("listen on \(options.path)", error)
            }
        } catch {
            // NIO closes the descriptor itself when it fails after adopting it; close it here only
            // if it is still open (at start-up nothing else can have been given its number). The
            // raw fcntl is a probe, not a call that can fail: EBADF is the answer "closed".
            if fcntl(fd, F_GETFD) != -1 { try? Syscall.closeDescriptor(fd) }
            unlinkIfSame(options.path, identity, logger: logger)
            throw error
        }
        return (OwnedUnixSocket(path: options.path, identity: identity, lock: lock), channel)
    }

    /// After its channel closed: removes the file if it is still the one bound here (a daemon
    /// started after this one, on the same path after this one's file was gone, keeps its socket),
    /// then releases the lock.
    public func release(logger: Logger) {
        Self.unlinkIfSame(path, identity, logger: logger)
        lock.release()
    }
}

// The system calls, each with its error.
extension OwnedUnixSocket {
    /// Creates the socket's directory (mode 0755) when it does not exist yet.
    static func makeDirectory(_ directory: String) throws {
        do {
            _ = try Syscall.retrying { mkdir(directory, 0o755) }
        } catch .fileExists {
            return
        } catch {
            throw SocketServerError.system("mkdir \(directory)", error)
        }
    }

    /// A Unix stream socket bound at `address` (not yet listening: NIO listens when it adopts
    /// it). `inUse` when another daemon bound the path between the stale check and this bind.
    static func bindUnixSocket(_ address: UnixSocketAddress) throws -> Int32 {
        let fd: Int32
        do {
            fd = try UnixSocket.make()
        } catch {
            throw SocketServerError.system("socket", error)
        }
        do {
            _ = try address.withSockaddr { (sa, length) throws(Errno) in try Syscall.retrying { bind(fd, sa, length) } }
        } catch {
            try? Syscall.closeDescriptor(fd)  // never listened on: nothing to lose
            if error == .addressInUse { throw SocketServerError.inUse(address.path) }
            throw SocketServerError.system("bind \(address.path)", error)
        }
        return fd
    }

    /// Removes the socket file at `path` only if it is still the one this daemon bound.
    static func unlinkIfSame(_ path: String, _ identity: FileIdentity?, logger: Logger) {
        guard let identity, FileIdentity(path: path) == identity else { return }
        do {
            _ = try Syscall.retrying { unlink(path) }
        } catch {
            logger.warning("cannot remove the socket file \(path): \(error)")
        }
    }

    /// Gives the socket file at `path` its group and mode, through a descriptor of that very
    /// file, not by its name: between the bind and here, whoever can write the socket's directory
    /// can put a symbolic link at the path, and chmod(2) and chown(2) follow one (an adversary's
    /// finding: a root daemon made a root-only file group-readable). The descriptor is opened
    /// without following (`O_PATH | O_NOFOLLOW`) and must be a socket.
    static func setPermissions(path: String, mode: mode_t, group: String?) throws {
        let gid: gid_t?
        if let group {
            guard let g = resolveGroup(group) else { throw SocketServerError.unknownGroup(group) }
            gid = g
        } else {
            gid = nil
        }
        let fd: Int32
        do {
            fd = try Syscall.retrying { open(path, oPath | O_NOFOLLOW | O_CLOEXEC) }
        } catch {
            throw SocketServerError.system("open \(path) to set its mode", error)
        }
        defer { try? Syscall.closeDescriptor(fd) }  // an O_PATH descriptor: nothing written
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else { throw SocketServerError.notASocket(path) }
        if let gid, let group {
            do {
                _ = try Syscall.retrying { fchownat(fd, "", uid_t.max, gid, atEmptyPath) }
            } catch {
                throw SocketServerError.system("chown \(path) to group \(group)", error)
            }
        }
        // No fchmod for an O_PATH descriptor; its /proc link names the same file, whatever is at
        // the path by now (glibc's fchmodat(AT_SYMLINK_NOFOLLOW) does the same).
        do {
            _ = try Syscall.retrying { chmod("/proc/self/fd/\(fd)", mode) }
        } catch {
            throw SocketServerError.system("chmod \(path)", error)
        }
    }

    // Glibc's module leaves out what only _GNU_SOURCE declares: Linux's values (asm-generic
    // fcntl.h; every architecture strokes builds for).
    private static let oPath: Int32 = 0o10_000_000
    private static let atEmptyPath: Int32 = 0x1000

    /// The group `name` (a name or a number) names, if this system has it. `gid_t.max` is not a
    /// group: to `chown` it means "leave the group as it is".
    static func resolveGroup(_ name: String) -> gid_t? {
        if let n = gid_t(name) { return n < gid_t.max && getgrgid(n) != nil ? n : nil }
        guard let entry = getgrnam(name) else { return nil }
        return entry.pointee.gr_gid
    }
}

/// A file's device and inode.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64

    init?(path: String) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
