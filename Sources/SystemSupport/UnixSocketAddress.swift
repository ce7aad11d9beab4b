import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// A Unix domain socket address (`sockaddr_un`) built from a path, with the path-length check
/// that the fixed `sun_path` array needs: the one place that fills one in, for the daemon's
/// listener, its stale-socket probe, `sd_notify` and the clients.
public struct UnixSocketAddress {
    /// The path as given.
    public let path: String
    private var storage = sockaddr_un()
    /// The address's length for `bind`/`connect`/`sendto`: the family, the path and, for a
    /// path in the file system, its terminating NUL.
    public let length: socklen_t

    /// The longest path, in bytes, that fits (with its terminating NUL): 107 on Linux.
    public static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A path that does not fit in `sun_path`.
    public struct PathTooLong: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var description: String {
            "socket path too long (\(path.utf8.count) bytes, at most \(UnixSocketAddress.maxPathLength)): \(path)"
        }
    }

    /// - Parameters:
    ///   - path: a file-system path; with `abstractNamespace`, a leading `@` names an address in
    ///     Linux's abstract namespace instead (as `$NOTIFY_SOCKET` may).
    public init(path: String, abstractNamespace: Bool = false) throws(PathTooLong) {
        self.path = path
        var bytes = Array(path.utf8)
        let abstract = abstractNamespace && bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        guard bytes.count <= UnixSocketAddress.maxPathLength else { throw PathTooLong(path: path) }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as a `sockaddr` and its length.
    public func withSockaddr<R, E: Error>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws(E) -> R) throws(E) -> R {
        try withUnsafePointer(to: storage) { p throws(E) in
            try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(E) in try body(sa, length) }
        }
    }
}
