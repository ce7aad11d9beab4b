import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket
import StrokeDaemon
import StrokeProtocol

/// Answers one HTTP connection's requests (after NIO's HTTP/1 codec; the WebSocket upgrade is
/// NIO's too, `HTTPServer`): the page and its assets, `/healthz`, the JSON endpoints, `/render.svg`;
/// or turns the connection into a Server-Sent Events stream, a client of the daemon like a
/// socket's. Everything runs on the daemon's event loop, so the daemon's state is read directly.
final class HTTPRouter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = HTTPServerResponsePart

    private let daemon: Daemon
    private let access: HTTPAccess
    /// Over `maxConnections`: every request gets 503 and the connection closes.
    private let refusing: Bool
    private var head: HTTPRequestHead?
    /// The connection is an SSE stream: nothing more is read from it.
    private var streaming = false
    /// Bytes of the answers written on this connection.
    private var answered = 0
    /// A request read while the connection was not writable, answered once it is: NIO's pipelining
    /// handler passes the next request on only after this one's answer, so one connection's
    /// answers wait for it to read them instead of piling up in NIO's buffer (1000 pipelined
    /// `GET /history` that were never read took the daemon from 26 to 270 MB: an adversary's
    /// finding). With `BackPressureHandler` (`HTTPServer`) its further requests wait unread.
    private var waiting: HTTPRequestHead?
    /// How fast this connection's requests are answered, by their answers' bytes (`RequestPacing`,
    /// as a socket client's); made from the daemon's settings at the first request.
    private var pacing: RequestPacing?
    /// A request that comes meanwhile is `waiting` until the bucket has refilled.
    private var paced = false

    private let refusals: RefusalLog
    /// Closes the connection unless a whole request head has come by then: from the connection's
    /// start and from each answer on. A connection that sends nothing, or a byte now and then,
    /// held a descriptor and a place under `maxConnections` for good (an adversary's finding: a
    /// few thousand of them kept the clients' socket from accepting).
    private var headDeadline: Scheduled<Void>?
    static let headTimeout = TimeAmount.seconds(10)

    /// A Unix listener's connection: its peer's credentials are judged by the allow-lists.
    private let unixPeers: Bool

    init(daemon: Daemon, access: HTTPAccess, refusing: Bool, refusals: RefusalLog, unixPeers: Bool = false) {
        self.unixPeers = unixPeers
        self.daemon = daemon
        self.access = access
        self.refusing = refusing
        self.refusals = refusals
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitHead(context)
        context.fireChannelActive()
    }

    /// What the connection's answers held goes back to the system with the clients' queues
    /// (`Daemon.clientReleased`): 60 connections that asked for `history` pages and read nothing
    /// left the daemon 35 MB larger after they had all gone (an adversary's finding).
    func channelInactive(context: ChannelHandlerContext) {
        daemon.clientReleased(answered)
        answered = 0
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        headDeadline?.cancel()  // upgraded to WebSocket: its reads are its own
        headDeadline = nil
    }

    /// Starts the time a request head may take (`headDeadline`).
    private func awaitHead(_ context: ChannelHandlerContext) {
        headDeadline?.cancel()
        let bound = context.loopBound
        headDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: Self.headTimeout) {
            self.headDeadline = nil
            guard !self.streaming, self.head == nil, self.waiting == nil else { return }
            bound.value.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !streaming else { return }
        switch unwrapInboundIn(data) {
        case .head(let h):
            head = h
            headDeadline?.cancel()
            headDeadline = nil
        case .body: break  // a GET has none; any other method is refused without reading it
        case .end:
            guard let h = head else { return }
            head = nil
            waiting = h
            answerWaiting(context)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        answerWaiting(context)
        context.fireChannelWritabilityChanged()
    }

    /// Answers the request that waits, if the connection is writable and its pacing allows.
    private func answerWaiting(_ context: ChannelHandlerContext) {
        guard let h = waiting, !paced, context.channel.isWritable else { return }
        waiting = nil
        respond(context, h)
    }

    /// Charges an answer of `bytes` before it is written (writing it lets NIO's pipelining handler
    /// pass the next request at once); past the burst, the next answer waits for the bucket.
    private func charge(_ context: ChannelHandlerContext, _ bytes: Int) {
        var pacing = self.pacing ?? daemon.settings.requestPacing
        let wait = pacing.charge(bytes, at: .now())
        self.pacing = pacing
        guard let wait else { return }
        paced = true
        context.eventLoop.assumeIsolated().scheduleTask(in: wait) {
            self.paced = false
            if context.channel.isActive { self.answerWaiting(context) }
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
        if refusing {
            let error = ProtocolError(.tooManyClients, "the HTTP listener serves at most its http.maxConnections connections", id: nil)
            refusals.note(.init(code: 503), "http.maxConnections reached", uri: h.uri, peer: context.remoteAddress)
            return send(context, h, .serviceUnavailable, error: error, close: true)
        }
        if let name = HTTPRouter.repeatedAccessHeader(h) {
            // RFC 9112 §3.2 (RFC 7230 §5.4): two `Host`s are a 400. Two `Origin`s or
            // `Authorization`s likewise: the check would judge one and a proxy might act on the other.
            let error = ProtocolError(.badArgument, "the request has more than one \(name) header", id: nil)
            refusals.note(.init(code: 400), "repeated \(name)", uri: h.uri, peer: context.remoteAddress)
            return send(context, h, .badRequest, error: error, close: true)
        }
        if h.version.major == 1, h.version.minor >= 1, h.headers["host"].isEmpty {
            // RFC 9112 §3.2: an HTTP/1.1 request without `Host` is a 400, on any listener.
            let error = ProtocolError(.badArgument, "an HTTP/1.1 request carries a Host header", id: nil)
            refusals.note(.init(code: 400), "no Host", uri: h.uri, peer: context.remoteAddress)
            return send(context, h, .badRequest, error: error, close: true)
        }
        guard h.method == .GET || h.method == .HEAD else {
            let error = ProtocolError(.unknownRequest, "only GET and HEAD are served, not \(h.method.rawValue)", id: nil)
            return send(context, h, .methodNotAllowed, error: error, extra: [("allow", "GET, HEAD")])
        }
        let target = RequestTarget(h.uri)
        let endpoint: Endpoint
        var parseError: ProtocolError?
        do {
            endpoint = try Endpoint(target, lastEventID: h.headers.first(name: "last-event-id"))
        } catch {
            guard error.code != .unknownRequest else { return send(context, h, .notFound, error: error) }
            // A malformed parameter of a data endpoint: what it says waits for the token check.
            endpoint = .request("")
            parseError = error
        }
        if let refusal = HTTPRouter.check(access, h, target, needsToken: endpoint.needsToken) {
            let error = ProtocolError(.forbidden, refusal.message, id: nil)
            refusals.note(.init(code: refusal == .token ? 401 : 403), "\(refusal)", uri: h.uri, peer: context.remoteAddress)
            if refusal == .token { return send(context, h, .unauthorized, error: error, extra: [("www-authenticate", "Bearer")]) }
            return send(context, h, .forbidden, error: error)
        }
        // Judged at each request: a reload's allow-lists hold from the next one on.
        if unixPeers, endpoint.needsToken, !daemon.admitsPeer(of: context.channel) {
            refusals.note(.init(code: 403), "peer not in the allow-list", uri: h.uri, peer: context.remoteAddress)
            return send(context, h, .forbidden, error: ProtocolError(.forbidden, "this peer may not read strokes", id: nil))
        }
        if let parseError { return send(context, h, .badRequest, error: parseError) }
        switch endpoint {
        case .asset(let asset):
            var body = context.channel.allocator.buffer(capacity: asset.bytes.count)
            body.writeBytes(asset.bytes)
            send(context, h, .ok, contentType: asset.contentType, body: body)
        case .healthz:
            let stopping = daemon.stopping
            let body = #"{"status":"\#(stopping ? "stopping" : "ok")","daemon":"strokes \#(Daemon.version)"}"#
            send(context, h, stopping ? .serviceUnavailable : .ok, json: body)
        case .request(let line):
            let reply = daemon.answer(line: Substring(line))
            send(context, h, reply.hasPrefix(#"{"type":"error""#) ? .badRequest : .ok, json: reply)
        case .renderSVG:
            let svg = RenderSVG.picture(of: daemon)
            send(context, h, .ok, contentType: "image/svg+xml; charset=utf-8", body: context.channel.allocator.buffer(string: svg))
        case .webSocket:
            let error = ProtocolError(.badArgument, "GET /ws is a WebSocket endpoint: send a WebSocket upgrade request", id: nil)
            send(context, h, .upgradeRequired, error: error, extra: [("upgrade", "websocket")])
        case .events(let subscribe):
            // Checked here as the daemon will check it, so a bad filter is a 400, not a stream.
            if case .failure(let error) = ClientRequest.parse(Substring(subscribe)) {
                return send(context, h, .badRequest, error: error)
            }
            // HEAD: the stream's head, and no stream.
            if h.method == .HEAD { return sendEventsHead(context, h) }
            startEvents(context, h, subscribe: subscribe)
        }
    }

    /// The name of a header the access checks read that the request repeats, if any.
    static func repeatedAccessHeader(_ h: HTTPRequestHead) -> String? {
        for name in ["Host", "Origin", "Authorization"] where h.headers[name].count > 1 { return name }
        return nil
    }

    /// The token, `Host` and `Origin` checks for a request (`HTTPAccess`).
    static func check(_ access: HTTPAccess, _ h: HTTPRequestHead, _ target: RequestTarget, needsToken: Bool) -> HTTPAccess.Refusal? {
        // An absolute-form target's authority is the request's host (RFC 9112 §3.2.2), and so
        // what the Host check judges: `GET http://evil.example/ HTTP/1.1` with a good `Host`
        // passed (an adversary's finding; a proxy or a hop following the RFC acts on the target).
        access.check(
            host: RequestTarget.authority(h.uri).map(String.init) ?? h.headers.first(name: "host"), origin: h.headers.first(name: "origin"),
            authorization: h.headers.first(name: "authorization"), queryToken: target.query["token"], needsToken: needsToken)
    }

    /// Answers with the stream's head, then makes the connection a client of the daemon whose
    /// every line goes out as an event (`SSEEncoder`), subscribed with the query's filters.
    private func startEvents(_ context: ChannelHandlerContext, _ h: HTTPRequestHead, subscribe: String) {
        let head = HTTPResponseHead(version: h.version, status: .ok, headers: HTTPRouter.eventStreamHeaders)
        context.writeAndFlush(wrapOutboundOut(.head(head)), promise: nil)
        streaming = true
        headDeadline?.cancel()
        headDeadline = nil
        do {
            // The encoder first: the client handler greets the client as soon as it is added.
            let encoder = SSEEncoder()
            try context.pipeline.syncOperations.addHandler(encoder, position: .after(self))
            try context.pipeline.syncOperations.addHandler(ClientHandler(daemon: daemon, readsCredentials: unixPeers), position: .after(encoder))
        } catch {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(wrapInboundOut(context.channel.allocator.buffer(string: subscribe + "\n")))
    }

    private func send(
        _ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, error: ProtocolError,
        extra: [(String, String)] = [], close: Bool = false
    ) {
        send(context, h, status, json: error.json, extra: extra, close: close)
    }

    private func send(
        _ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, json: String,
        extra: [(String, String)] = [], close: Bool = false
    ) {
        var body = context.channel.allocator.buffer(capacity: json.utf8.count + 1)
        body.writeString(json)
        body.writeStaticString("\n")
        send(context, h, status, contentType: "application/json", body: body, extra: extra, close: close)
    }

    static let eventStreamHeaders = HTTPHeaders([
        ("content-type", "text/event-stream; charset=utf-8"), ("cache-control", "no-store"),
        ("x-accel-buffering", "no"), ("x-content-type-options", "nosniff"),
    ])

    /// The answer to `HEAD /events`: the stream's head (no length: the stream has none), then the
    /// connection closes.
    private func sendEventsHead(_ context: ChannelHandlerContext, _ h: HTTPRequestHead) {
        var headers = HTTPRouter.eventStreamHeaders
        headers.add(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: h.version, status: .ok, headers: headers))), promise: nil)
        let bound = context.loopBound
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// Writes an answer: to a `HEAD`, its head alone (with the length its body would have).
    private func send(
        _ context: ChannelHandlerContext, _ h: HTTPRequestHead, _ status: HTTPResponseStatus, contentType: String, body: ByteBuffer,
        extra: [(String, String)] = [], close: Bool = false
    ) {
        var headers = HTTPHeaders([
            ("content-type", contentType), ("content-length", String(body.readableBytes)), ("cache-control", "no-store"),
            ("x-content-type-options", "nosniff"),
        ])
        if contentType.hasPrefix("text/html") {
            headers.add(name: "content-security-policy", value: HTTPRouter.pagePolicy)
            headers.add(name: "x-frame-options", value: "DENY")
        }
        for (name, value) in extra { headers.add(name: name, value: value) }
        charge(context, body.readableBytes)
        answered += body.readableBytes
        let keepAlive = h.isKeepAlive && !close
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: h.version, status: status, headers: headers))), promise: nil)
        if h.method != .HEAD { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !keepAlive {
            let bound = context.loopBound
            done.whenComplete { _ in bound.value.close(promise: nil) }
        } else {
            // From when the answer is written whole: a slow reader of a long one is not cut off.
            done.assumeIsolated().whenSuccess { _ in self.awaitHead(context) }
        }
    }

    /// The page's own files only; connections back to this listener (fetch, EventSource, WebSocket).
    static let pagePolicy =
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A WebSocket upgrade that `HTTPServer`'s checks declined: the request comes here next and
        // gets its answer (401, 403, 426).
        if error is NIOWebSocketUpgradeError { return }
        context.close(promise: nil)
    }
}
