import NIOCore
import NIOHTTP1

/// The outbound half of a Server-Sent Events connection: each protocol line the daemon writes
/// (a `ByteBuffer`, as to a socket client) becomes one event in the response body
/// (`ServerSentEvent`); closing the connection ends the response first: the connection closes
/// once the response's end is written, or after `HTTPServer.closeWait` for a client that does not
/// read it. Closed at once, the end went behind what a slow client had not read yet and was
/// dropped: a response cut short (an adversary's finding).
final class SSEEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    private var ended = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let events = ServerSentEvent.events(of: unwrapOutboundIn(data), allocator: context.channel.allocator)
        context.write(wrapOutboundOut(.body(.byteBuffer(events))), promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !ended, context.channel.isActive {
            ended = true
            HTTPServer.closeAfter(context, writing: wrapOutboundOut(.end(nil)), mode: mode, promise: promise)
            return
        }
        context.close(mode: mode, promise: promise)
    }
}
