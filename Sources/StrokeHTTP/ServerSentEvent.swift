import NIOCore

/// How a protocol line becomes one Server-Sent Event (docs/protocol.md, "HTTP, SSE and WebSocket"):
///
/// ```
/// id: 42                       a stream message (began, moved, ended, cancelled, deviceAdded,
/// data: {"type":"moved",…}     deviceRemoved): the default event type, its seq as the id
///
/// event: snapshot              a snapshot: named, its seq as the id (resuming after it is exact)
/// id: 41
/// data: {"type":"snapshot",…}
///
/// event: hello                 anything else (hello, reply, error, hover, gesture, goodbye):
/// data: {"type":"hello",…}     named by its type, no id
/// ```
///
/// A browser's `EventSource` keeps the last id and sends it back as `Last-Event-ID` when it
/// reconnects: the stream resumes after it (`resumeAfter`). Lines never hold a raw newline, so
/// each is one `data:` field.
enum ServerSentEvent {
    /// Appends the event for `line` (one protocol line, without its newline) to `out`.
    static func append(line: ByteBufferView, to out: inout ByteBuffer) {
        let (type, seq) = typeAndSeq(line)
        switch type {
        case "began", "moved", "ended", "cancelled", "deviceAdded", "deviceRemoved":
            if let seq { appendID(seq, to: &out) }
        case "snapshot":
            out.writeStaticString("event: snapshot\n")
            if let seq { appendID(seq, to: &out) }
        default:
            if let type {
                out.writeStaticString("event: ")
                out.writeBytes(type.utf8)
                out.writeStaticString("\n")
            }
        }
        out.writeStaticString("data: ")
        out.writeBytes(line)
        out.writeStaticString("\n\n")
    }

    /// Every line of `buffer` (each ended by its newline) as an event.
    static func events(of buffer: ByteBuffer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var out = allocator.buffer(capacity: buffer.readableBytes + 48)
        let view = buffer.readableBytesView
        var start = view.startIndex
        while start < view.endIndex {
            let end = view[start...].firstIndex(of: UInt8(ascii: "\n")) ?? view.endIndex
            if end > start { append(line: view[start..<end], to: &out) }
            start = end + 1
        }
        return out
    }

    private static func appendID(_ seq: Substring, to out: inout ByteBuffer) {
        out.writeStaticString("id: ")
        out.writeBytes(seq.utf8)
        out.writeStaticString("\n")
    }

    /// The line's `type` and, when `"seq":N` follows it at once (as on every numbered message),
    /// `N`. The daemon writes `type` first, always (docs/protocol.md, "Transport and framing").
    static func typeAndSeq(_ line: ByteBufferView) -> (type: String?, seq: Substring?) {
        let text = String(decoding: line.prefix(64), as: UTF8.self)
        let typePrefix = #"{"type":""#
        guard text.hasPrefix(typePrefix) else { return (nil, nil) }
        let rest = text.dropFirst(typePrefix.count)
        guard let quote = rest.firstIndex(of: "\"") else { return (nil, nil) }
        let type = String(rest[..<quote])
        let afterType = rest[rest.index(after: quote)...]
        let seqPrefix = #","seq":"#
        guard afterType.hasPrefix(seqPrefix) else { return (type, nil) }
        let digits = afterType.dropFirst(seqPrefix.count).prefix { $0.isASCII && $0.isNumber }
        return (type, digits.isEmpty ? nil : digits)
    }
}
