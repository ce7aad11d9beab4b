#if canImport(Glibc)
import Glibc
#endif

/// A blocking client connection to the daemon's Unix socket, line by line: what `strokes watch`,
/// `strokes render --socket`, the tests and the benchmarks use. Plain POSIX, so it also shows how
/// little a client needs.
public final class LineSocket {
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    public struct Error: Swift.Error, CustomStringConvertible {
        public var message: String
        /// `readLine(timeout:)` gave up waiting: nothing is wrong with the connection.
        public var timedOut = false
        public var description: String { message }
        public init(message: String, timedOut: Bool = false) {
            self.message = message
            self.timedOut = timedOut
        }
    }

    /// Connects to the socket at `path`.
    public init(path: String) throws {
        // `self.fd` is set only once connected: a class whose stored properties are all set runs
        // its deinit when its init throws, and a second close here could close a descriptor
        // another thread has just been given (seen as NIO's EBADF precondition in the tests).
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Error(message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Error(message: "socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let rc = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw Error(message: "cannot connect to \(path): \(String(cString: strerror(e)))")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one line (the newline is added).
    public func send(_ line: String) throws {
        try sendRaw(Array((line + "\n").utf8))
    }

    /// Sends bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Error(message: "send: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// The next line without its newline; nil at end of stream. Throws when nothing arrives
    /// within `timeout` seconds (none: wait forever).
    public func readLine(timeout: Double? = nil) throws -> String? {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0a) {
                let line = String(decoding: buffer[start..<nl], as: UTF8.self)
                start = nl + 1
                if start > 65536 {
                    buffer.removeFirst(start)
                    start = 0
                }
                return line
            }
            if let timeout {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let rc = poll(&p, 1, Int32(timeout * 1000))
                if rc == 0 { throw Error(message: "no line within \(timeout) s", timedOut: true) }
                if rc < 0 && errno != EINTR { throw Error(message: "poll: \(String(cString: strerror(errno)))") }
                if rc < 0 { continue }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw Error(message: "recv: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Shuts down the writing side (the daemon sees end of input).
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }
}
