import NIOCore
import StrokeProtocol

/// A connection past `http.maxConnections`: 503 and closed as soon as it is accepted.
final class RefuseOverCapacity: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let refusals: RefusalLog
    init(refusals: RefusalLog) { self.refusals = refusals }

    static let response: String = {
        let body = ProtocolError(.tooManyClients, "the HTTP listener serves at most its http.maxConnections connections", id: nil).json + "\n"
        return "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: \(body.utf8.count)\r\n"
            + "cache-control: no-store\r\nconnection: close\r\n\r\n" + body
    }()

    func channelActive(context: ChannelHandlerContext) {
        refusals.note(.init(code: 503), "http.maxConnections reached", uri: "-", peer: context.remoteAddress)
        let bound = context.loopBound
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: Self.response))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }

    /// What the client sends meanwhile is not read.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
