import NIOCore
import NIOWebSocket

/// RFC 6455's rules for a client's frames that NIO's decoder leaves to the application, checked
/// before the aggregator: every frame masked (§5.1: "a server MUST close the connection upon
/// receiving a frame that is not masked"), no RSV bit set, since no extension is negotiated, and
/// no reserved opcode (§5.2: "MUST Fail the WebSocket Connection"). A violation goes down the
/// pipeline as an error,
/// which `WebSocketLineCodec` answers with close 1002 (protocol error); nothing after it is read.
final class WebSocketFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// Why a frame was refused.
    enum Violation: Error, Equatable {
        case unmasked
        case reservedBits
        case reservedOpcode
    }

    private static let known: [WebSocketOpcode] = [.continuation, .text, .binary, .connectionClose, .ping, .pong]

    private var failed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let frame = unwrapInboundIn(data)
        let violation: Violation? =
            if frame.maskKey == nil {
                .unmasked
            } else if frame.rsv1 || frame.rsv2 || frame.rsv3 {
                .reservedBits
            } else if !Self.known.contains(frame.opcode) {
                .reservedOpcode
            } else {
                nil
            }
        guard let violation else {
            context.fireChannelRead(data)
            return
        }
        failed = true
        context.fireErrorCaught(violation)
    }
}
