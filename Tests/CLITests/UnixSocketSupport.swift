#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket of `type` bound at `path` (a fake daemon's listening socket, a notify socket),
/// or -1 when it cannot be bound.
func boundUnixSocket(_ path: String, type: Int32 = Int32(SOCK_STREAM.rawValue)) -> Int32 {
    let fd = socket(AF_UNIX, type, 0)
    guard fd >= 0 else { return -1 }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() { raw[i] = b }
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0 else {
        close(fd)
        return -1
    }
    return fd
}
