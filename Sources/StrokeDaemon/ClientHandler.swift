import NIOCore
import StrokeProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The per-connection NIO handler: splits the input into lines (at most `maxLineLength` bytes),
/// hands each to the daemon, and pumps the client's queue when the socket drains.
final class ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    private let daemon: Daemon
    private var client: ClientConnection?
    private var pending: ByteBuffer?

    init(daemon: Daemon) { self.daemon = daemon }

    func channelActive(context: ChannelHandlerContext) {
        client = daemon.clientConnected(
            context.channel, peer: ClientHandler.peerCredentials(context.channel), groups: PeerGroups.read(context.channel))
        // A peer already gone makes the greeting's write fail and closes the channel inside
        // `clientConnected`, before `client` was set: channelInactive came and went, so the
        // client is forgotten here (it would otherwise count against maxClients for ever).
        if !context.channel.isActive, let client {
            daemon.clientGone(client)
            self.client = nil
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let client { daemon.clientGone(client) }
        client = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let client, !client.closing else { return }
        var incoming = unwrapInboundIn(data)
        if pending == nil {
            pending = incoming
        } else {
            pending!.writeBuffer(&incoming)
        }
        while let line = nextLine() {
            guard line.utf8.count <= daemon.settings.maxLineLength else {
                tooLong(client)
                return
            }
            daemon.handle(line: line, from: client)
            if client.closing { return }
        }
        if let pending, pending.readableBytes > daemon.settings.maxLineLength { tooLong(client) }
    }

    private func tooLong(_ client: ClientConnection) {
        let error = ProtocolError(.lineTooLong, "lines are at most \(daemon.settings.maxLineLength) bytes", id: nil)
        _ = client.enqueue(.line(error.json))
        pending = nil
        daemon.disconnect(client, reason: "lineTooLong", drain: true)
    }

    /// The next complete line, without its `\n` (and a `\r` before it).
    private func nextLine() -> Substring? {
        guard var buffer = pending, let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            return nil
        }
        let length = newline - buffer.readerIndex
        var text = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        pending = buffer.readableBytes == 0 ? nil : buffer
        if text.hasSuffix("\r") { text.removeLast() }
        return Substring(text)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The client shut down its writing side: a subscriber goes on receiving (`nc -N` style
        // clients), anyone else is done once its replies are out.
        if let e = event as? ChannelEvent, e == .inputClosed, let client {
            if client.subscription == nil { daemon.disconnect(client, reason: "clientClosed", drain: true) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { client?.pump() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        client?.logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// The peer's pid, uid and gid (`SO_PEERCRED`), which the kernel fills at connect time.
    static func peerCredentials(_ channel: Channel) -> PeerCredentials? {
        SocketOption.read(channel, SO_PEERCRED)
    }
}
