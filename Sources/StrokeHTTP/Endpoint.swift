import StrokeProtocol

/// What a `GET` asks for (docs/protocol.md, "HTTP, SSE and WebSocket").
enum Endpoint: Equatable, Sendable {
    /// The page and its assets (`/`, `/page.js`, `/page.css`).
    case asset(PageAsset)
    case healthz
    /// A protocol request answered with its reply object (`/devices`, `/live`, `/history`, `/stats`):
    /// the request line to hand the daemon.
    case request(String)
    /// Server-Sent Events: the `subscribe` request line the stream starts with.
    case events(subscribe: String)
    /// The WebSocket endpoint; reached by a request that is not a valid upgrade (or not allowed).
    case webSocket
    case renderSVG

    /// The endpoint for a path and query; a `ProtocolError` (`unknownRequest` for an unknown path,
    /// `badArgument` for a malformed parameter) when there is none.
    init(_ target: RequestTarget, lastEventID: String?) throws(ProtocolError) {
        // Found by a black-box test: `/live?devices=%ZZ` dropped the parameter and served every device.
        guard !target.malformedQuery else {
            throw ProtocolError(.badArgument, "a query parameter has a malformed %-escape or is not UTF-8", id: nil)
        }
        let q = target.query
        switch target.path {
        case "/", "/index.html": self = .asset(.index)
        case "/page.js": self = .asset(.script)
        case "/page.css": self = .asset(.style)
        case "/healthz": self = .healthz
        case "/ws": self = .webSocket
        case "/render.svg": self = .renderSVG
        case "/devices": self = .request(try Endpoint.line("devices", q, keys: []))
        case "/live": self = .request(try Endpoint.line("live", q, keys: ["devices"]))
        case "/history": self = .request(try Endpoint.line("history", q, keys: ["devices", "limit", "cursor"]))
        case "/stats": self = .request(try Endpoint.line("stats", q, keys: []))
        case "/events":
            var q = q
            if let lastEventID { q["lastEventId"] = lastEventID }
            self = .events(subscribe: try Endpoint.line("subscribe", q, keys: ["devices", "events", "lastEventId"]))
        default:
            throw ProtocolError(.unknownRequest, "no such endpoint: \(Endpoint.excerpt(target.path))", id: nil)
        }
    }

    /// Whether the endpoint serves the daemon's data (so needs the token, when one is set).
    var needsToken: Bool {
        switch self {
        case .asset, .healthz: return false
        case .request, .events, .webSocket, .renderSVG: return true
        }
    }

    /// A request line from query parameters: `devices=1,2`, `events=began,ended`, `limit=N`,
    /// `cursor=C`, `lastEventId=S` (as `resumeAfter`). Parameters not in `keys` are ignored, as
    /// unknown request keys are.
    private static func line(_ request: StaticString, _ q: [String: String], keys: Set<String>) throws(ProtocolError) -> String {
        var w = JSONWriter()
        w.field("request", name: request)
        if keys.contains("devices"), let text = q["devices"] {
            guard let list = RequestTarget.integerList(text) else { throw bad("devices", "a comma-separated list of device ids") }
            w.raw("devices", list)
        }
        if keys.contains("events"), let text = q["events"] {
            guard let list = RequestTarget.nameList(text) else { throw bad("events", "a comma-separated list of event names") }
            w.raw("events", list)
        }
        if keys.contains("limit"), let text = q["limit"] {
            guard let limit = Int(text), limit >= 0 else { throw bad("limit", "an integer ≥ 0") }
            w.field("limit", limit)
        }
        if keys.contains("cursor"), let cursor = q["cursor"] { w.field("cursor", cursor) }
        if keys.contains("lastEventId"), let text = q["lastEventId"], !text.isEmpty {
            guard let seq = UInt64(text) else { throw bad("lastEventId", "a sequence number") }
            w.field("resumeAfter", seq)
        }
        return w.finish()
    }

    private static func bad(_ key: String, _ what: String) -> ProtocolError {
        ProtocolError(.badArgument, "'\(key)' must be \(what)", id: nil)
    }

    /// At most 40 characters of what the client sent, escaped by the JSON writer later.
    static func excerpt(_ s: String) -> String { s.count > 40 ? s.prefix(40) + "…" : s }
}
