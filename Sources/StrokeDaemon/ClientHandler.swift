import NIOCore
import StrokeProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The per-connection NIO handler: splits the input into lines (at most `maxLineLength` bytes),
/// hands each to the daemon at the pace its replies allow (`RequestPacing`: past the burst, the
/// socket is not read until the next request may be), and pumps the client's queue when the
/// socket drains.
///
/// Any channel whose pipeline turns its input into request bytes and its output (one `ByteBuffer`
/// per protocol line, newline included) back into its own framing can be a client this way: the
/// HTTP side's WebSocket and Server-Sent Events connections are (`StrokeHTTP`). Added to a channel
/// that is already active, it connects the client at once; otherwise when the channel becomes active.
public final class ClientHandler: ChannelInboundHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer

    /// An inbound user event: control frames the connection's framing answered itself (WebSocket
    /// pings), charged against the client's pacing as requests are: a flood of them answered at
    /// full speed kept the event loop from the other clients.
    public struct ControlFrames: Sendable {
        public var count: Int
        public init(count: Int) { self.count = count }
    }

    private let daemon: Daemon
    private let readsCredentials: Bool
    private let writesDirectly: Bool
    private var client: ClientConnection?
    private var connected = false
    private var pending: ByteBuffer?
    /// Requests wait for `RequestPacing`: the socket is not read, lines already read stay in `pending`.
    private var paced = false
    /// The client shut down its writing side; acted on once the requests it sent are answered.
    private var inputClosed = false

    /// - Parameter readsCredentials: whether the peer's `SO_PEERCRED` (and groups) are read for the
    ///   allow-lists and `maxClientsPerUid`; false for connections whose peer has none that mean
    ///   anything (TCP), which only `maxClients` bounds.
    /// - Parameter writesDirectly: whether the client's lines may be written to its socket
    ///   directly (`DirectSocket`): only for a channel whose pipeline adds no framing to its output.
    /// - Parameter maxLineLength: the line limit the connection keeps (its `hello` says it), when
    ///   something before this handler enforces it already (a WebSocket's frame decoder, set up
    ///   when the connection was made); nil: the configuration's when the client connects.
    public init(daemon: Daemon, readsCredentials: Bool = true, writesDirectly: Bool = false, maxLineLength: Int? = nil) {
        self.daemon = daemon
        self.readsCredentials = readsCredentials
        self.writesDirectly = writesDirectly
        self.maxLineLength = maxLineLength
    }
    private let maxLineLength: Int?

    public func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { connect(context) }
    }

    public func channelActive(context: ChannelHandlerContext) {
        connect(context)
        context.fireChannelActive()
    }

    private func connect(_ context: ChannelHandlerContext) {
        guard !connected else { return }
        connected = true
        let peer = readsCredentials ? ClientHandler.peerCredentials(context.channel) : nil
        client = daemon.clientConnected(
            context.channel, peer: peer, groups: readsCredentials ? PeerGroups.read(context.channel) : nil,
            writesDirectly: writesDirectly, maxLineLength: maxLineLength)
        // A peer already gone makes the greeting's write fail and closes the channel inside
        // `clientConnected`, before `client` was set: channelInactive came and went, so the
        // client is forgotten here (it would otherwise count against maxClients for ever).
        if !context.channel.isActive, let client {
            daemon.clientGone(client)
            self.client = nil
        }
    }

    public func channelInactive(context: ChannelHandlerContext) {
        if let client { daemon.clientGone(client) }
        client = nil
        context.fireChannelInactive()
    }

    /// How much of a client's bytes one read cycle takes: at most one read of up to 16 KiB
    /// (NIO's defaults: four of up to 64 KiB). What a cycle read waits in `pending` while the
    /// client's replies wait for room, uncharged: a client that pipelined 200 KB of requests and
    /// read nothing held all of them here, in a buffer twice that (an adversary's finding). Now
    /// what a client has sent and the daemon has not answered waits in the kernel.
    public static let readAllocator = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 2048, maximum: 16384)
    public static let readsPerCycle: UInt = 1

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let client, !client.closing else { return }
        var incoming = unwrapInboundIn(data)
        if pending == nil {
            pending = incoming
        } else {
            pending!.writeBuffer(&incoming)
        }
        // While paced, what NIO had already read waits here (one read cycle: autoRead is off).
        if !paced { handleLines(context, client) }
    }

    /// Hands the complete lines in `pending` to the daemon until they run out or the client must
    /// wait for its pacing.
    private func handleLines(_ context: ChannelHandlerContext, _ client: ClientConnection) {
        while pending != nil {
            // Replies wait for room as well as for pacing: a client that sent many requests at
            // once got their replies (up to the 8 MiB burst) queued faster than its socket
            // drained them, past its byte limit, and was cut off as slow while it read at full
            // speed. So the next request is read once what is held for it is under where merging
            // starts (a quarter of the byte limit, `mergeAfter` messages), and a reply of at most
            // half of the byte limit fits. Counted in messages too: thousands of small replies
            // (pings) reached `disconnectAfter` messages long before a quarter of the bytes.
            if client.currentHeldBytes() > client.queue.byteLimit / 4 || client.queue.count >= client.queue.mergeThreshold {
                waitForRoom(context, client)
                return
            }
            guard let (line, length) = nextLine() else { break }
            guard length <= client.maxLineLength else {
                tooLong(client)
                return
            }
            let replied = client.repliedBytes
            if let line {
                daemon.handle(line: line, from: client)
            } else {
                // JSON between systems is UTF-8 (RFC 8259 §8.1): bytes that are not are refused,
                // not repaired into U+FFFD and answered as if the client had sent those.
                let error = ProtocolError(.invalidJSON, "a request is UTF-8 text; this line is not", id: nil)
                daemon.send(error.json, to: client)
            }
            if client.closing { return }
            if let wait = client.pacing.charge(client.repliedBytes &- replied, at: .now()) {
                pace(context, client, for: wait)
                return
            }
        }
        // A `\r` last may be the first half of the line's `\r\n`, which is not counted.
        if let pending, pending.readableBytes - (pending.readableBytesView.last == UInt8(ascii: "\r") ? 1 : 0) > client.maxLineLength {
            tooLong(client)
        }
        if inputClosed { inputDone(client) }
    }

    /// Stops reading the socket until the client has taken what is held for it down to a quarter
    /// of its limit (looked at every 10 ms: only while it is behind), then goes on.
    ///
    /// Looked at, not told: for a client NIO writes for, part of what is held is NIO's buffer,
    /// and NIO says nothing as it drains but a writability change at its water marks (32 and
    /// 64 KiB), while a quarter of the smallest byte limit is 16 KiB: a callback from the pump
    /// would wait for ever on a client whose NIO buffer stays between the two.
    private func waitForRoom(_ context: ChannelHandlerContext, _ client: ClientConnection) {
        pace(context, client, for: .milliseconds(10))
    }

    /// Stops reading the socket for `wait`, then answers the lines read meanwhile and reads on.
    private func pace(_ context: ChannelHandlerContext, _ client: ClientConnection, for wait: TimeAmount) {
        paced = true
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: wait) {
            self.paced = false
            guard self.client === client, !client.closing, context.channel.isActive else { return }
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            self.handleLines(context, client)
        }
    }

    private func tooLong(_ client: ClientConnection) {
        let error = ProtocolError(.lineTooLong, "lines are at most \(client.maxLineLength) bytes", id: nil)
        _ = client.enqueue(.line(error.json))
        pending = nil
        daemon.disconnect(client, reason: "lineTooLong", drain: true)
    }

    /// The next complete line, without its `\n` (and a `\r` before it), and its length in bytes;
    /// the line is nil when its bytes are not UTF-8.
    private func nextLine() -> (Substring?, Int)? {
        guard var buffer = pending, let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            return nil
        }
        var bytes = buffer.readSlice(length: newline - buffer.readerIndex)!.readableBytesView
        buffer.moveReaderIndex(forwardBy: 1)
        pending = buffer.readableBytes == 0 ? nil : buffer
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        return (String(validating: bytes, as: UTF8.self).map { Substring($0) }, bytes.count)
    }

    public func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let frames = event as? ControlFrames {
            guard let client, !client.closing else { return }
            for _ in 0..<frames.count {
                if let wait = client.pacing.charge(0, at: .now()), !paced { pace(context, client, for: wait) }
            }
            return
        }
        // The client shut down its writing side: a subscriber goes on receiving (`nc -N` style
        // clients), anyone else is done once its replies are out (those to requests waiting for
        // their pacing too).
        if let e = event as? ChannelEvent, e == .inputClosed, let client {
            inputClosed = true
            if !paced { inputDone(client) }
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func inputDone(_ client: ClientConnection) {
        if client.subscription == nil, !client.closing { daemon.disconnect(client, reason: "clientClosed", drain: true) }
    }

    public func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { client?.pump() }
        context.fireChannelWritabilityChanged()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        client?.logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    /// The peer's pid, uid and gid (`SO_PEERCRED`), which the kernel fills at connect time.
    static func peerCredentials(_ channel: Channel) -> PeerCredentials? {
        SocketOption.read(channel, SO_PEERCRED)
    }
}
