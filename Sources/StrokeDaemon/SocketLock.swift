import NIOConcurrencyHelpers
import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The lock a daemon holds on `PATH.lock` beside its socket for as long as it serves at `PATH`
/// (Wayland compositors do the same with `wayland-0.lock`).
///
/// Without it, two daemons started together on a path with a stale socket file could both judge
/// the file stale (a socket bound but not yet listening refuses connections, as a stale one does),
/// and the second's `unlink` removed the socket the first had just bound: both ran, one of them
/// unreachable. With it, only the holder looks at, removes or binds the socket file; the other is
/// refused as `inUse`. The lock file is left in place at exit: removing it would let a third
/// daemon lock a new file while a second still holds the old one.
final class SocketLock: Sendable {
    let path: String
    /// Nil once released.
    private let fd: NIOLockedValueBox<CInt?>

    private init(path: String, fd: CInt) {
        self.path = path
        self.fd = NIOLockedValueBox(fd)
    }

    /// Takes the lock for the socket at `socketPath`, without waiting: `inUse` when another
    /// daemon holds it.
    static func acquire(for socketPath: String) throws -> SocketLock {
        let path = socketPath + ".lock"
        let fd: CInt
        do {
            // Read-only is enough for flock(2). Only the owner may open it: anyone who can open a
            // file can flock it, and a user holding the lock would keep the daemon from starting.
            // Non-blocking: a FIFO put there would block the open forever.
            fd = try Syscall.retrying { open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        } catch {
            throw SocketServerError.system("open the lock file \(path)", error)
        }
        // Only a regular file of the daemon's own user is its lock: another user's (put there in
        // a directory others can write) could be held by that user, who would keep the daemon
        // from starting as "in use" (an adversary's finding).
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_uid == geteuid() else {
            try? Syscall.closeDescriptor(fd)  // nothing written
            let what = st.st_mode & S_IFMT == S_IFREG ? "a file of uid \(st.st_uid)" : "not a regular file"
            throw SocketServerError.foreignLock(path, what)
        }
        // One left by an earlier version, readable by all: made the owner's alone.
        if st.st_mode & 0o077 != 0 { fchmod(fd, 0o600) }
        do {
            _ = try Syscall.retrying { flock(fd, LOCK_EX | LOCK_NB) }
        } catch {
            try? Syscall.closeDescriptor(fd)  // a lock file's descriptor: nothing written
            if error == .wouldBlock { throw SocketServerError.inUse(socketPath, locked: true) }
            throw SocketServerError.system("lock \(path)", error)
        }
        return SocketLock(path: path, fd: fd)
    }

    /// Releases the lock (closing its descriptor releases it; so does the process's exit). Once.
    func release() {
        fd.withLockedValue { fd in
            guard let open = fd else { return }
            fd = nil
            try? Syscall.closeDescriptor(open)  // a lock file's descriptor: nothing written
        }
    }

    deinit { release() }
}
