import SystemPackage
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Bytes received from a socket, cut into lines: the one line reader of `LineSocket` and of
/// `StrokeClient`'s connection thread. Each byte is scanned for a newline once, however many
/// reads a long line (a snapshot) takes; one receive buffer is reused for every read.
struct SocketLines {
    enum Failure: Error {
        /// More than `maxLineLength` bytes without a newline.
        case tooLong(Int)
        case recv(Errno)
    }

    let fd: Int32
    /// None: no limit.
    let maxLineLength: Int?
    private var buffer: [UInt8] = []
    private var start = 0
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 65536)

    init(fd: Int32, maxLineLength: Int?) {
        self.fd = fd
        self.maxLineLength = maxLineLength
    }

    /// The next line without its newline; nil at the end of the stream (or a reset connection).
    /// `beforeReceive` runs before each blocking `recv` (a wait with a timeout) and may throw.
    mutating func next(beforeReceive: () throws -> Void = {}) throws -> ArraySlice<UInt8>? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0a) {
                let line = buffer[start..<newline]
                start = newline + 1
                scanned = start
                return line
            }
            if start >= 65536 {
                buffer.removeFirst(start)
                start = 0
            }
            scanned = buffer.count
            if let maxLineLength, buffer.count - start > maxLineLength { throw Failure.tooLong(maxLineLength) }
            try beforeReceive()
            let n: Int
            do {
                n = try Syscall.retrying { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }
            } catch .connectionReset {
                return nil
            } catch {
                throw Failure.recv(error)
            }
            if n == 0 { return nil }
            buffer += chunk[0..<n]
        }
    }
}
