import Foundation

/// One Server-Sent Event as the tests read it.
struct SSEEvent: Equatable {
    var event: String?
    var id: String?
    var data: String
}

/// An SSE stream over `TCPClient`: the chunked body decoded, then cut into events.
final class SSEReader {
    let client: TCPClient
    private var body: [UInt8] = []
    private(set) var ended = false
    /// The response ended with its last chunk (not a connection that just closed).
    private(set) var terminated = false

    init(client: TCPClient) { self.client = client }

    /// The next event; nil when the stream ended.
    func next(timeout: Double = 10) throws -> SSEEvent? {
        while true {
            if let r = separator() {
                let text = String(decoding: body[0..<r.lowerBound], as: UTF8.self)
                body.removeFirst(r.upperBound)
                var e = SSEEvent(event: nil, id: nil, data: "")
                for line in text.split(separator: "\n") {
                    if line.hasPrefix("event: ") { e.event = String(line.dropFirst(7)) }
                    if line.hasPrefix("id: ") { e.id = String(line.dropFirst(4)) }
                    if line.hasPrefix("data: ") { e.data = String(line.dropFirst(6)) }
                }
                return e
            }
            guard !ended else { return nil }
            try readChunk(timeout: timeout)
        }
    }

    private func separator() -> Range<Int>? {
        guard body.count >= 2 else { return nil }
        for i in 0..<(body.count - 1) where body[i] == 10 && body[i + 1] == 10 { return i..<(i + 2) }
        return nil
    }

    private func readChunk(timeout: Double) throws {
        guard let sizeLine = try client.take(through: [13, 10], timeout: timeout) else {
            ended = true
            return
        }
        let size = Int(String(decoding: sizeLine.dropLast(2), as: UTF8.self), radix: 16) ?? 0
        if size == 0 {
            _ = try client.take(2, timeout: timeout)
            ended = true
            terminated = true
            return
        }
        body += try client.take(size, timeout: timeout)
        // A chunk ends with CRLF (RFC 9112 §7.1): anything else is a malformed response.
        let end = try client.take(2, timeout: timeout)
        guard end == [13, 10] else { throw TCPClient.Failure(description: "a chunk of \(size) bytes ends with \(end), not CRLF") }
    }

    /// Events until none arrives for `quiet` seconds (or the stream ends).
    func drain(quiet: Double = 0.5) throws -> [SSEEvent] {
        var out: [SSEEvent] = []
        while true {
            do {
                guard let e = try next(timeout: quiet) else { break }
                out.append(e)
            } catch let error as TCPClient.Failure where error.timedOut {
                break
            }
        }
        return out
    }
}

/// A minimal WebSocket client: the handshake, masked frames out, frames in.
final class WSClient {
    let client: TCPClient

    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    /// Connects and upgrades; throws with the response when the server refuses.
    convenience init(port: Int, path: String = "/ws", headers: [String: String] = [:], receiveBuffer: Int? = nil) throws {
        try self.init(connected: TCPClient(port: port, receiveBuffer: receiveBuffer), port: port, path: path, headers: headers)
    }

    /// Upgrades a connection already made.
    init(connected: TCPClient, port: Int, path: String = "/ws", headers: [String: String] = [:]) throws {
        client = connected
        var h = headers
        h["Upgrade"] = "websocket"
        h["Connection"] = "Upgrade"
        h["Sec-WebSocket-Key"] = headers["Sec-WebSocket-Key"] ?? "dGhlIHNhbXBsZSBub25jZQ=="
        h["Sec-WebSocket-Version"] = "13"
        let r = try client.request("GET", path, headers: h, port: port)
        guard r.status == 101 else {
            let body = try client.take(Int(r.headers["content-length"] ?? "0") ?? 0)
            throw WSRefused(status: r.status, body: String(decoding: body, as: UTF8.self))
        }
    }

    struct WSRefused: Error {
        var status: Int
        var body: String
    }

    /// Sends one frame, masked as RFC 6455 requires of a client unless `masked` is false; `rsv`
    /// sets the reserved bits (0x70), which no extension here defines.
    func send(opcode: UInt8 = 1, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) throws {
        try client.send(Self.frame(opcode: opcode, payload, fin: fin, masked: masked, rsv: rsv))
    }

    /// A frame's bytes as `send` writes them.
    static func frame(opcode: UInt8 = 1, _ payload: [UInt8], fin: Bool = true, masked: Bool = true, rsv: UInt8 = 0) -> [UInt8] {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | rsv | opcode]
        let mask: [UInt8] = masked ? [0x12, 0x34, 0x56, 0x78] : [0, 0, 0, 0]
        let maskBit: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            frame.append(maskBit | UInt8(payload.count))
        } else if payload.count < 65536 {
            frame.append(maskBit | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(maskBit | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked { frame += mask }
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return frame
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func frame(timeout: Double = 10) throws -> Frame {
        let head = try client.take(2, timeout: timeout)
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            let b = try client.take(2, timeout: timeout)
            length = Int(b[0]) << 8 | Int(b[1])
        } else if length == 127 {
            length = try client.take(8, timeout: timeout).reduce(0) { $0 << 8 | Int($1) }
        }
        return Frame(opcode: head[0] & 0x0F, payload: try client.take(length, timeout: timeout))
    }

    /// The next text frame's message, parsed.
    func message(timeout: Double = 10) throws -> [String: Any] {
        while true {
            let f = try frame(timeout: timeout)
            if f.opcode == 1 { return (try JSONSerialization.jsonObject(with: Data(f.payload)) as? [String: Any]) ?? [:] }
            if f.opcode == 8 { throw TCPClient.Failure(description: "closed") }
        }
    }

    /// Text frames until none arrives for `quiet` seconds.
    func drain(quiet: Double = 0.5) throws -> [String] {
        var out: [String] = []
        while true {
            do {
                let f = try frame(timeout: quiet)
                if f.opcode == 1 { out.append(f.text) }
                if f.opcode == 8 { break }
            } catch let error as TCPClient.Failure where error.timedOut {
                break
            }
        }
        return out
    }
}
