import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// Unix stream sockets through the funnel (`Syscall`).
public enum UnixSocket {
    /// A new close-on-exec socket of `type` (`SOCK_STREAM`, `SOCK_DGRAM`).
    public static func make(_ type: __socket_type = SOCK_STREAM) throws(Errno) -> CInt {
        try Syscall.retrying { socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    }

    /// A stream socket connected to `address`; closed again when connecting fails.
    public static func connect(to address: UnixSocketAddress) throws(Errno) -> CInt {
        let fd = try make()
        do throws(Errno) {
            // EINTR from connect leaves the connection being made in the background: wait for it
            // rather than connecting again (which would report EALREADY).
            let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if rc == -1 {
                let error = Errno(rawValue: errno)
                guard error == .interrupted else { throw error }
                try waitConnected(fd)
            }
            return fd
        } catch {
            try? Syscall.closeDescriptor(fd)
            throw error
        }
    }

    /// Waits for a connection interrupted by a signal to complete (connect(2), `EINPROGRESS`).
    private static func waitConnected(_ fd: CInt) throws(Errno) {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        _ = try Syscall.retrying { poll(&p, 1, -1) }
        var error: CInt = 0
        var size = socklen_t(MemoryLayout<CInt>.size)
        _ = try Syscall.retrying { getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) }
        if error != 0 { throw Errno(rawValue: error) }
    }
}
