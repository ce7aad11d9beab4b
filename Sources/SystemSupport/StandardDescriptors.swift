#if canImport(Glibc)
import Glibc
#endif

/// Standard input, output and error as the process's first three descriptors.
public enum StandardDescriptors {
    /// Opens `/dev/null` on whichever of descriptors 0, 1 and 2 are closed; call first, before
    /// anything opens a descriptor. A process started with them closed (a launcher's `>&- 2>&-`,
    /// a wrapper that double-forks) otherwise hands out 1 and 2 to whatever it opens next (an
    /// epoll, a socket): every command it starts gets that as its output, and its own first log
    /// line is written into it. Returns whether all three are open afterwards.
    @discardableResult
    public static func ensureOpen() -> Bool {
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            // The lowest free descriptor: `fd` itself, as the ones below it are open.
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            guard opened == fd else {
                if opened >= 0 { close(opened) }
                return false
            }
        }
        return true
    }
}
