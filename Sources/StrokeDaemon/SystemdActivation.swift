#if canImport(Glibc)
import Glibc
#endif

/// The two pieces of the systemd protocol the daemon speaks, without libsystemd: socket
/// activation (`sd_listen_fds(3)`) and readiness notification (`sd_notify(3)`).
public enum SystemdActivation {
    /// The first passed socket (fd 3) when `LISTEN_PID` is this process and `LISTEN_FDS` ≥ 1.
    /// The variables are removed so that child processes do not inherit them.
    public static func listenFD() -> Int32? {
        guard let pid = env("LISTEN_PID"), pid_t(pid) == getpid(), let n = env("LISTEN_FDS"), let count = Int(n),
            count >= 1
        else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3  // SD_LISTEN_FDS_START
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Sends a state string (`READY=1`, `STOPPING=1`, `WATCHDOG=1`, `STATUS=…`) to
    /// `$NOTIFY_SOCKET`; does nothing when it is unset. Returns whether it was sent.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        guard let path = env("NOTIFY_SOCKET"), !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1))
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
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
