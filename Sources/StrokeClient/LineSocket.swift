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
    private var lines: SocketLines

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

    /// Connects to the socket at `path`. A line longer than `maxLineLength` bytes is an error, not
    /// memory without end (`StrokeClient`'s bound: a daemon's lines are far shorter; a broken or
    /// hostile server's need not end at all).
    public init(path: String, maxLineLength: Int? = 64 << 20) throws {
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
        lines = SocketLines(fd: fd, maxLineLength: maxLineLength)
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
        let fd = self.fd
        do {
            let line = try lines.next {
                guard let timeout else { return }
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
            return line.map { String(decoding: $0, as: UTF8.self) }
        } catch SocketLines.Failure.recv(let errno) {
            throw Error(message: "recv: \(errno)")
        } catch SocketLines.Failure.tooLong(let limit) {
            throw Error(message: "a line longer than \(limit) bytes")
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
