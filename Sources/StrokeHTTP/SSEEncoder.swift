import NIOCore
import NIOHTTP1

/// The outbound half of a Server-Sent Events connection: each protocol line the daemon writes
/// (a `ByteBuffer`, as to a socket client) becomes one event in the response body
/// (`ServerSentEvent`); closing the connection ends the response first.
final class SSEEncoder: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    private var ended = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let events = ServerSentEvent.events(of: unwrapOutboundIn(data), allocator: context.channel.allocator)
        context.write(wrapOutboundOut(.body(.byteBuffer(events))), promise: promise)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all, !ended {
            ended = true
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
        context.close(mode: mode, promise: promise)
    }
}
