import NIOCore
import NIOWebSocket
import StrokeDaemon
import StrokeProtocol

/// Protocol v1 over WebSocket: one JSON message per text frame, both ways. Between NIO's frame
/// codec (and `NIOWebSocketFrameAggregator`) and the daemon's `ClientHandler`, so the daemon sees
/// just another client writing and reading lines:
///
/// - a text frame in becomes one request line (its raw newlines, which JSON allows only as
///   whitespace, become spaces, so one frame is one request however it is laid out);
/// - each line out (a `ByteBuffer` ending in its newline) becomes one text frame without it;
/// - a binary frame closes the connection with 1003 (RFC 6455 §7.4.1: data it cannot accept;
///   answering each with an error let a flood of them keep the event loop from the other
///   clients); pings are answered when a read of the client's frames is done, with one pong for
///   the latest (RFC 6455 §5.5.3), and count against the connection's pacing
///   (`ClientHandler.ControlFrames`); a
///   close with a close, then the connection closes; closing from this side sends a close frame
///   first (1000, after the daemon's `goodbye`).
final class WebSocketLineCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = WebSocketFrame

    private var closeSent = false
    /// The pong for the latest ping of this read (`channelReadComplete` writes it): its payload
    /// copied, at most 125 bytes. A pong per ping, written at once, made thousands of frames per
    /// read of a client that pinged and never read, held by NIO until the peer read them (MBs
    /// per connection: an adversary's finding).
    private var pong: ByteBuffer?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var line = frame.unmaskedData
            // RFC 6455 §8.1: text that is not UTF-8 fails the connection (1007).
            guard String(validating: line.readableBytesView, as: UTF8.self) != nil else {
                return sendClose(context, code: .dataInconsistentWithMessage)
            }
            line.withUnsafeMutableReadableBytes { bytes in
                for i in bytes.indices where bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\r") {
                    bytes[i] = UInt8(ascii: " ")
                }
            }
            line.writeInteger(UInt8(ascii: "\n"))
            context.fireChannelRead(wrapInboundOut(line))
        case .binary:
            sendClose(context, code: .unacceptableData)
        case .ping:
            var payload = frame.unmaskedData
            var copy = context.channel.allocator.buffer(capacity: payload.readableBytes)
            copy.writeBuffer(&payload)
            pong = copy
            context.fireUserInboundEventTriggered(ClientHandler.ControlFrames(count: 1))
        case .connectionClose:
            // Echo the close (its status code only), then close the connection; a close frame
            // RFC 6455 does not allow (§5.5.1, §7.4) is answered with 1002, one whose reason is
            // not UTF-8 with 1007.
            var data = frame.unmaskedData
            guard data.readableBytes != 0 else { return sendClose(context, data: data) }
            guard let status = data.readInteger(as: UInt16.self), Self.mayBeReceived(status) else {
                return sendClose(context, code: .protocolError)
            }
            guard String(validating: data.readableBytesView, as: UTF8.self) != nil else {
                return sendClose(context, code: .dataInconsistentWithMessage)
            }
            var code = context.channel.allocator.buffer(capacity: 2)
            code.writeInteger(status)
            sendClose(context, data: code)
        default:
            // pong, and continuation frames (the aggregator already joined those): nothing to do.
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let data = pong {
            pong = nil
            if !closeSent { context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: data)), promise: nil) }
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let buffer = unwrapOutboundIn(data)
        let view = buffer.readableBytesView
        var frames: [WebSocketFrame] = []
        var start = view.startIndex
        while start < view.endIndex {
            let end = view[start...].firstIndex(of: UInt8(ascii: "\n")) ?? view.endIndex
            if end > start, let slice = buffer.getSlice(at: start, length: end - start) {
                frames.append(WebSocketFrame(fin: true, opcode: .text, data: slice))
            }
            start = end + 1
        }
        guard let last = frames.popLast() else {
            promise?.succeed()
            return
        }
        for frame in frames { context.write(wrapOutboundOut(frame), promise: nil) }
        context.write(wrapOutboundOut(last), promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !closeSent, context.channel.isActive {
            // The connection closes once the close frame is written, or after
            // `HTTPServer.closeWait` for a client that does not read it: closed at once, the frame
            // went behind what a slow client had not read yet and was dropped, so a client cut
            // for `slowClient` saw its `goodbye` and no close frame (an adversary's finding).
            var code = context.channel.allocator.buffer(capacity: 2)
            code.write(webSocketErrorCode: .normalClosure)
            closeSent = true
            HTTPServer.closeAfter(
                context, writing: wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)), mode: mode,
                promise: promise)
            return
        }
        context.close(mode: mode, promise: promise)
    }

    /// The aggregator's errors (after NIO's protocol error handler, so it never sees them): a
    /// message in fragments beyond 64 KiB in all is 1009 (message too big), any other broken
    /// fragmentation 1002 (protocol error); a frame `WebSocketFrameCheck` refused (unmasked, an
    /// RSV bit) 1002 too; then the connection closes.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        let status: WebSocketErrorCode
        switch error {
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge, NIOWebSocketFrameAggregator.Error.tooManyFragments:
            status = .messageTooLarge
        case is NIOWebSocketFrameAggregator.Error, is WebSocketFrameCheck.Violation:
            status = .protocolError
        default:
            context.fireErrorCaught(error)
            return
        }
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: status)
        sendClose(context, data: code)
    }

    /// A status a peer may send (RFC 6455 §7.4.1 and the IANA registry: 1000-1003, 1007-1014,
    /// and the ranges for libraries and applications); 1005, 1006 and 1015 are never sent.
    static func mayBeReceived(_ status: UInt16) -> Bool {
        switch status {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    private func sendClose(_ context: ChannelHandlerContext, code status: WebSocketErrorCode) {
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: status)
        sendClose(context, data: code)
    }

    private func sendClose(_ context: ChannelHandlerContext, data: ByteBuffer) {
        guard !closeSent else {
            context.close(promise: nil)
            return
        }
        closeSent = true
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let bound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
