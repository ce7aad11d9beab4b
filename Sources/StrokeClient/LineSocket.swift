import SystemPackage
import SystemSupport

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
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw Error(message: "\(error)")
        }
        // `self.fd` is set only once connected: a class whose stored properties are all set runs
        // its deinit when its init throws, and a second close here could close a descriptor
        // another thread has just been given (seen as NIO's EBADF precondition in the tests).
        do {
            fd = try UnixSocket.connect(to: address)
        } catch {
            throw Error(message: "cannot connect to \(path): \(error)")
        }
    }

    deinit { try? Syscall.closeDescriptor(fd) }

    /// Sends one line (the newline is added).
    public func send(_ line: String) throws {
        try sendRaw(Array((line + "\n").utf8))
    }

    /// Sends bytes as they are.
    public func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            do {
                offset += try Syscall.retrying {
                    bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            } catch {
                throw Error(message: "send: \(error)")
            }
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
                let ready: Int32
                do {
                    // A signal restarts the wait with the whole timeout: a bound, not a deadline.
                    ready = try Syscall.retrying { poll(&p, 1, Int32(timeout * 1000)) }
                } catch {
                    throw Error(message: "poll: \(error)")
                }
                if ready == 0 { throw Error(message: "no line within \(timeout) s", timedOut: true) }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n: Int
            do {
                n = try Syscall.retrying { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            } catch .connectionReset {
                return nil
            } catch {
                throw Error(message: "recv: \(error)")
            }
            if n == 0 { return nil }
            buffer += chunk[0..<n]
        }
    }

    /// Shuts down the writing side (the daemon sees end of input). Returns the error when it
    /// fails: `ENOTCONN` when the daemon had already closed the connection.
    @discardableResult
    public func shutdownWrite() -> Errno? {
        do {
            _ = try Syscall.retrying { shutdown(fd, Int32(SHUT_WR)) }
            return nil
        } catch {
            return error
        }
    }
}
