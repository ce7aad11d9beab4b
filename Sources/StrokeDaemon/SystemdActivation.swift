import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The two pieces of the systemd protocol the daemon speaks, without libsystemd: socket
/// activation (`sd_listen_fds(3)`) and readiness notification (`sd_notify(3)`).
public enum SystemdActivation {
    /// The first passed socket (fd 3) when `LISTEN_PID` is this process and `LISTEN_FDS` ≥ 1.
    /// The variables are removed so that child processes do not inherit them. Throws when fd 3
    /// is not open (systemd said it passed one and did not).
    public static func listenFD() throws(Errno) -> Int32? {
        try listenFDs()?.fd
    }

    /// `listenFD()`, with how many sockets systemd said it passed (only the first is served).
    public static func listenFDs() throws(Errno) -> (fd: Int32, count: Int)? {
        guard let pid = env("LISTEN_PID"), pid_t(pid) == getpid(), let n = env("LISTEN_FDS"), let count = Int(n),
            count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        // Not through the funnel: EBADF here is systemd's (or a caller's) broken promise, not a
        // bug of ours, so it is thrown instead of trapping.
        guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { throw Errno(rawValue: errno) }
        return (fd, count)
    }

    /// Why `fd` is not a listening Unix stream socket, or nil when it is.
    public static func problem(withListeningSocket fd: Int32) -> String? {
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let domain = option(SO_DOMAIN), let type = option(SO_TYPE) else {
            return "is not a socket (\(Errno(rawValue: errno)))"
        }
        guard domain == AF_UNIX else {
            let name = domain == AF_INET ? "AF_INET" : domain == AF_INET6 ? "AF_INET6" : "domain \(domain)"
            return "is an \(name) socket, not a Unix one: its peers could not be told apart"
        }
        guard type == Int32(SOCK_STREAM.rawValue) else { return "is not a stream socket (type \(type))" }
        guard option(SO_ACCEPTCONN) == 1 else { return "is not listening" }
        return nil
    }

    /// The path a Unix socket is bound to, nil for an unnamed or abstract one.
    public static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let offset = MemoryLayout.offset(of: \sockaddr_un.sun_path)!
        guard got == 0, Int(length) > offset else { return nil }
        let bytes = withUnsafeBytes(of: address.sun_path) { Array($0.prefix(Int(length) - offset)) }
        guard let first = bytes.first, first != 0 else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// Sends a state string (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`) to
    /// `$NOTIFY_SOCKET`; does nothing when it is unset. Returns whether it was sent.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        guard let path = env("NOTIFY_SOCKET"), !path.isEmpty else { return false }
        guard let address = try? UnixSocketAddress(path: path, abstractNamespace: true),
            let fd = try? UnixSocket.make(SOCK_DGRAM)
        else { return false }
        defer { try? Syscall.closeDescriptor(fd) }  // a datagram socket that sent its one message
        let message = Array(state.utf8)
        let sent = try? address.withSockaddr { (sa, length) throws(Errno) in
            try Syscall.retrying {
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), sa, length) }
            }
        }
        return sent == message.count
    }

    /// Half of `WATCHDOG_USEC`, in microseconds, when the watchdog is on for this process.
    public static func watchdogInterval() -> Int64? {
        guard let usec = env("WATCHDOG_USEC").flatMap(Int64.init), usec > 0 else { return nil }
        if let pid = env("WATCHDOG_PID"), pid_t(pid) != getpid() { return nil }
        return usec / 2
    }

    static func env(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }
}
