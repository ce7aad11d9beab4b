import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import ServiceLifecycle
import StrokeDaemon
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP listener (`http:` in the configuration; docs/protocol.md, "HTTP, SSE and WebSocket"):
/// NIO's HTTP/1 server codec and WebSocket upgrader on the daemon's event loop. WebSocket
/// (`GET /ws`) and Server-Sent Events (`GET /events`) connections become clients of the daemon
/// like the socket's (`ClientHandler`: same requests, snapshots, resume and slow-client policy);
/// other requests are answered at once (`HTTPRouter`).
///
/// As a `Service` in the daemon's group it serves until graceful shutdown, then stops accepting;
/// the daemon's shutdown (`SocketServer`, after it) says goodbye to its stream clients with the
/// socket's.
public final class HTTPServer: Sendable {
    public let channel: Channel
    /// Where it listens, as bound (the actual port when configured with port 0).
    public let address: HTTPConfiguration.Listen
    /// Its Unix socket file, for a Unix socket listener.
    private let owned: OwnedUnixSocket?
    private let logger: Logger

    private init(channel: Channel, address: HTTPConfiguration.Listen, owned: OwnedUnixSocket?, logger: Logger) {
        self.channel = channel
        self.address = address
        self.owned = owned
        self.logger = logger
    }

    /// Reads the token file (if any), binds and starts accepting for `daemon`. A Unix socket
    /// listener is owned as the client socket is (`OwnedUnixSocket`: lock, stale file, its file
    /// removed at stop), with `unixSocket`'s mode and group (the client socket's, by default
    /// 0660 and `strokes`), set before it listens.
    public static func start(
        daemon: Daemon, configuration: HTTPConfiguration, unixSocket: SocketServer.Options = SocketServer.Options(path: ""),
        logger: Logger
    ) async throws -> HTTPServer {
        if let problem = configuration.problem { throw HTTPServerError.unsafe(problem) }
        let token = try configuration.tokenFile.map(readToken)
        let connections = NIOLoopBoundBox.makeBoxSendingValue(0, eventLoop: daemon.loop)
        let listen = configuration.listen
        let origins = configuration.allowOrigins
        let maxConnections = configuration.maxConnections
        let refusals = RefusalLog(loop: daemon.loop, logger: logger)
        let bootstrap = ServerBootstrap(group: daemon.loop)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            // As the clients' socket: out of descriptors, back off rather than retry accept at once.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoff { error in daemon.acceptFailed(error) })
                }
            }
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            // A fixed send buffer, the size a Unix socket client gets (net.core.wmem_default), rather
            // than TCP's autotuning up to 4 MiB: a WebSocket or SSE client that does not read meets
            // the slow-client policy as soon as a socket client would.
            .childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: 212_992)
            // As the clients' socket: a client's unanswered requests wait in the kernel, not here.
            .childChannelOption(ChannelOptions.recvAllocator, value: ClientHandler.readAllocator)
            .childChannelOption(ChannelOptions.maxMessagesPerRead, value: ClientHandler.readsPerCycle)
            .childChannelOption(
                ChannelOptions.writeBufferWaterMark, value: ChannelOptions.Types.WriteBufferWaterMark(low: 32 * 1024, high: 64 * 1024)
            )
            .childChannelInitializer { channel in
                connections.value += 1
                channel.closeFuture.whenComplete { _ in connections.value -= 1 }
                let access = HTTPAccess(listen: listen, port: channel.localAddress?.port, token: token, allowOrigins: origins)
                return channel.eventLoop.makeCompletedFuture {
                    // On the daemon's loop (the server's one group): the configuration of now, as
                    // the WebSocket client's `hello` will say it (a reload changes it for later
                    // connections only).
                    try HTTPServer.configure(
                        channel, daemon: daemon, access: access, refusing: connections.value > maxConnections,
                        maxFrameSize: daemon.settings.maxLineLength, refusals: refusals, unixPeers: listen.isUnix)
                }
            }
        let channel: Channel
        var owned: OwnedUnixSocket?
        do {
            switch listen {
            case .tcp(let host, let port): channel = try await bootstrap.bind(host: host, port: port).get()
            case .unix(let path):
                var options = unixSocket
                options.path = path
                (owned, channel) = try await OwnedUnixSocket.listen(options, backlog: 256, bootstrap: bootstrap, logger: logger)
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw HTTPServerError.inUse(listen.description)
        } catch SocketServerError.inUse {
            throw HTTPServerError.inUse(listen.description)
        } catch {
            throw HTTPServerError.bind(listen.description, error)
        }
        var bound = listen
        if case .tcp(let host, _) = listen, let port = channel.localAddress?.port { bound = .tcp(host: host, port: port) }
        logger.info(
            "HTTP listening", metadata: ["http": "\(bound)", "token": "\(token == nil ? "none" : "required")"])
        return HTTPServer(channel: channel, address: bound, owned: owned, logger: logger)
    }

    /// One connection's pipeline: NIO's HTTP/1 server handlers with the WebSocket upgrader, then
    /// the router. An upgrade to WebSocket replaces the router with the frame aggregator, the
    /// line codec and the daemon's client handler.
    private static func configure(
        _ channel: Channel, daemon: Daemon, access: HTTPAccess, refusing: Bool, maxFrameSize: Int, refusals: RefusalLog,
        unixPeers: Bool
    ) throws {
        if refusing {
            // Answered and closed at once, without waiting for a request: connections past the
            // cap that send nothing held their descriptors for good.
            return try channel.pipeline.syncOperations.addHandler(RefuseOverCapacity(refusals: refusals))
        }
        // A Unix listener's peers have credentials: the socket's allow-lists and per-uid limit
        // hold for them as for the socket's clients (an adversary's finding: they were skipped).
        let router = HTTPRouter(daemon: daemon, access: access, refusing: refusing, refusals: refusals, unixPeers: unixPeers)
        let routerName = "strokes.router"
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: maxFrameSize, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let target = RequestTarget(head.uri)
                guard !refusing, target.path == "/ws", HTTPServer.isValidUpgrade(head), HTTPRouter.repeatedAccessHeader(head) == nil,
                    HTTPRouter.check(access, head, target, needsToken: true) == nil
                else {
                    return channel.eventLoop.makeSucceededFuture(nil)
                }
                return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
            },
            upgradePipelineHandler: { channel, _ in
                channel.pipeline.removeHandler(name: routerName).flatMapThrowing {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(WebSocketFrameCheck())
                    try pipeline.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 1024, maxAccumulatedFrameSize: maxFrameSize))
                    try pipeline.addHandler(WebSocketLineCodec())
                    // Last: it greets the client as soon as it is added.
                    // The frames' limit is the client's: its `hello` says the one they are held to.
                    try pipeline.addHandler(ClientHandler(daemon: daemon, readsCredentials: unixPeers, maxLineLength: maxFrameSize))
                }
            })
        // First, at the socket: no more of the client's bytes are read while what the daemon
        // writes to it is past NIO's high-water mark. Without it one connection that pipelined
        // 1000 `GET /history` and read nothing took the daemon from 26 to 270 MB (an adversary's
        // finding); now the client's requests wait in the kernel. A WebSocket client's requests
        // wait the same way while it does not read its stream.
        try channel.pipeline.syncOperations.addHandler(BackPressureHandler())
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
        try channel.pipeline.syncOperations.addHandler(router, name: routerName)
    }

    /// How long a stream's last part (an SSE response's end, a WebSocket close frame) may wait
    /// for a client that does not read it before its connection closes anyway.
    static let closeWait = TimeAmount.seconds(1)

    /// Writes `last` and closes the connection once it is written, or after `closeWait`.
    static func closeAfter(
        _ context: ChannelHandlerContext, writing last: NIOAny, mode: CloseMode, promise: EventLoopPromise<Void>?
    ) {
        let bound = context.loopBound
        let closed = NIOLoopBoundBox(false, eventLoop: context.eventLoop)
        func close() {
            guard !closed.value else { return }
            closed.value = true
            bound.value.close(mode: mode, promise: promise)
        }
        let wait = context.eventLoop.assumeIsolated().scheduleTask(in: closeWait) { close() }
        context.writeAndFlush(last).assumeIsolated().whenComplete { _ in
            wait.cancel()
            close()
        }
    }

    /// What NIO's upgrader leaves unchecked of a WebSocket opening handshake (RFC 6455 §4.2.1):
    /// HTTP/1.1 or later, `Connection` with the `upgrade` token, and a `Sec-WebSocket-Key` that is
    /// 16 bytes in base64. Anything else is not an upgrade: the router answers it (426).
    static func isValidUpgrade(_ head: HTTPRequestHead) -> Bool {
        guard head.version.major == 1, head.version.minor >= 1 else { return false }
        let connection = head.headers["connection"].flatMap { $0.split(separator: ",") }
        guard connection.contains(where: { $0.trimmingSpaces.lowercased() == "upgrade" }) else { return false }
        let keys = head.headers["sec-websocket-key"]
        guard keys.count == 1 else { return false }
        return base64DecodedLength(keys[0].trimmingSpaces) == 16
    }

    /// How many bytes `text` decodes to as base64 (RFC 4648, padded), or nil if it is not that.
    static func base64DecodedLength(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 4 == 0 else { return nil }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        func isAlphabet(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F
        }
        guard bytes.dropLast(padding).allSatisfy(isAlphabet) else { return nil }
        return bytes.count / 4 * 3 - padding
    }

    static func readToken(_ path: String) throws -> [UInt8] {
        do throws(HTTPConfiguration.TokenError) {
            return try HTTPConfiguration.readToken(path)
        } catch {
            throw HTTPServerError.token(path, error.message)
        }
    }

    /// Stops accepting (connected clients stay: the daemon's shutdown ends them).
    public func stop() async {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
        } catch {
            logger.warning("closing the HTTP listener: \(error)")
        }
        owned?.release(logger: logger)
    }
}

public enum HTTPServerError: Error, CustomStringConvertible {
    case unsafe(String)
    case token(String, String)
    case bind(String, Error)
    /// Another process accepts connections at the address.
    case inUse(String)

    public var description: String {
        switch self {
        case .inUse(let address): return "HTTP listener \(address) is in use: another process accepts connections there"
        case .unsafe(let problem): return problem
        case .token(let path, let problem): return "http.token \(path): \(problem)"
        case .bind(let address, let error): return "HTTP listener \(address): \(error)"
        }
    }
}

extension HTTPServer: Service {
    public func run() async throws {
        try? await gracefulShutdown()  // thrown only for cancellation, which ends the same way
        await stop()
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it (HTTP's optional whitespace).
    fileprivate var trimmingSpaces: Substring {
        let s = self[...]
        let start = s.firstIndex { $0 != " " && $0 != "\t" } ?? s.endIndex
        let end = s.lastIndex { $0 != " " && $0 != "\t" }.map { s.index(after: $0) } ?? start
        return Substring(s[start..<Swift.max(start, end)])
    }
}
