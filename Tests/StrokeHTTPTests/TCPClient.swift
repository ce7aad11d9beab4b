import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP connection for the tests: raw bytes out, bytes in with a timeout. The tests
/// write HTTP and WebSocket by hand on purpose: the server's side is NIO's, the client's is not.
final class TCPClient {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var timedOut = false
    }

    let fd: Int32
    private(set) var buffer: [UInt8] = []
    private(set) var closed = false

    init(port: Int, receiveBuffer: Int? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else {
            close(fd)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { close(fd) }

    /// Ends the connection both ways (the descriptor stays open until deinit).
    func hangUp() { _ = shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: \(errno)") }
            sent += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads once (waiting at most `timeout` seconds) and appends to `buffer`; false at the end of the stream.
    @discardableResult
    func fill(timeout: Double) throws -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, Int32(timeout * 1000))
        guard ready > 0 else { throw Failure(description: "no data within \(timeout) s", timedOut: true) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n <= 0 {
            closed = true
            return false
        }
        buffer += chunk[0..<n]
        return true
    }

    /// Takes `count` bytes from the buffer, reading as needed.
    func take(_ count: Int, timeout: Double = 10) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill(timeout: timeout) else { throw Failure(description: "end of stream") }
        }
        let out = Array(buffer[0..<count])
        buffer.removeFirst(count)
        return out
    }

    /// Takes bytes up to and including `delimiter`, reading as needed; nil at the end of the stream.
    func take(through delimiter: [UInt8], timeout: Double = 10) throws -> [UInt8]? {
        while true {
            if let r = range(of: delimiter) {
                let out = Array(buffer[0..<r.upperBound])
                buffer.removeFirst(r.upperBound)
                return out
            }
            guard try fill(timeout: timeout) else { return nil }
        }
    }

    private func range(of d: [UInt8]) -> Range<Int>? {
        guard buffer.count >= d.count else { return nil }
        for i in 0...(buffer.count - d.count) where buffer[i] == d[0] && Array(buffer[i..<(i + d.count)]) == d {
            return i..<(i + d.count)
        }
        return nil
    }

    /// Reads until the peer closes (or `timeout` passes without data); true when it closed.
    func waitForClose(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            do {
                if try !fill(timeout: max(0.01, deadline.timeIntervalSinceNow)) { return true }
            } catch {
                return closed
            }
        }
        return closed
    }
}

/// An HTTP response as the tests read it.
struct HTTPResponse {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:] }
}

extension TCPClient {
    /// Sends a request (HTTP/1.1, keep-alive) and reads the response's head.
    func request(_ method: String = "GET", _ target: String, headers: [String: String] = [:], port: Int) throws -> HTTPResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        try send(text + "\r\n")
        return try responseHead()
    }

    func responseHead() throws -> HTTPResponse {
        guard let head = try take(through: Array("\r\n\r\n".utf8)) else { throw Failure(description: "no response") }
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where line.contains(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return HTTPResponse(status: status, headers: headers, body: [])
    }

    /// A whole response with a `content-length` body.
    func get(_ target: String, headers: [String: String] = [:], method: String = "GET", port: Int) throws -> HTTPResponse {
        var r = try request(method, target, headers: headers, port: port)
        r.body = try take(Int(r.headers["content-length"] ?? "0") ?? 0)
        return r
    }
}
