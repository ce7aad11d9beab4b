import StrokeDaemon

/// Who may use the HTTP side (docs/security.md, "HTTP"): pure checks of a request's token, `Host`
/// and `Origin`, made once per request.
///
/// - **Token**: when configured, every data endpoint (all but the page, its assets and
///   `/healthz`) needs it, as `Authorization: Bearer TOKEN` or `?token=TOKEN` (an `EventSource`
///   cannot set headers), compared in constant time.
/// - **Host**: without a token (a loopback listener), the `Host` header must name the listener
///   (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`) or an allowed origin's host: a page on
///   another site whose name was rebound to 127.0.0.1 (DNS rebinding) is refused.
/// - **Origin**: a request that carries `Origin` (every browser WebSocket handshake does) must
///   come from an allowed origin: by default the listener's own; with a token, also the page's
///   own origin (`Origin` equal to `http://` or `https://` and the `Host`). Clients that are not
///   browsers send no `Origin`.
struct HTTPAccess: Sendable {
    /// The token's bytes; nil when none is configured.
    let token: [UInt8]?
    /// Allowed `Origin` values, lowercased, without a trailing `/`.
    let origins: Set<String>
    /// Allowed `Host` values (lowercased); nil: any.
    let hosts: Set<String>?

    enum Refusal: Equatable, Sendable {
        case token, host, origin

        var message: String {
            switch self {
            case .token: return "a token is required: Authorization: Bearer TOKEN, or ?token=TOKEN"
            case .host: return "the Host header does not name this listener"
            case .origin: return "requests from this Origin are not allowed (http.allowOrigins)"
            }
        }
    }

    /// The checks for a listener at `listen` (its actual port, when bound to port 0).
    init(listen: HTTPConfiguration.Listen, port: Int?, token: [UInt8]?, allowOrigins: [String]?) {
        self.token = token
        var own: Set<String> = []
        if case .tcp(let host, _) = listen, let port {
            own = ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)"]
            own.insert(host.contains(":") ? "[\(host.lowercased())]:\(port)" : "\(host.lowercased()):\(port)")
        }
        // On port 80 browsers leave the port out of `Host` and `Origin`.
        if port == 80 { own.formUnion(own.map { String($0.dropLast(3)) }) }
        let configured = allowOrigins.map { Set($0.map(HTTPAccess.normalizedOrigin)) }
        origins = configured ?? Set(own.map { "http://\($0)" })
        if token == nil, case .tcp = listen {
            hosts = own.union((configured ?? []).compactMap(HTTPAccess.host(ofOrigin:)))
        } else {
            hosts = nil
        }
    }

    /// Whether a request with these headers and query may proceed; `needsToken` is false for the
    /// page, its assets and `/healthz`.
    func check(host: String?, origin: String?, authorization: String?, queryToken: String?, needsToken: Bool) -> Refusal? {
        // A request without `Host` names nothing (and HTTP/1.1 requires one): refused too.
        if let hosts, !(host.map { hosts.contains($0.lowercased()) } ?? false) { return .host }
        if let origin {
            let o = HTTPAccess.normalizedOrigin(origin)
            let sameOrigin = token != nil && host.map { o == "http://\($0.lowercased())" || o == "https://\($0.lowercased())" } == true
            if !origins.contains(o) && !sameOrigin { return .origin }
        }
        if needsToken, let token {
            var presented: Substring?
            if let authorization, authorization.lowercased().hasPrefix("bearer ") {
                presented = authorization.dropFirst(7).drop { $0 == " " }
            } else if let queryToken {
                presented = Substring(queryToken)
            }
            guard let presented, HTTPAccess.constantTimeEqual(Array(presented.utf8), token) else { return .token }
        }
        return nil
    }

    /// Equal bytes, in a time that depends only on the lengths: every byte is compared even after
    /// a difference, so the response time does not say how much of a guess was right.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        for i in 0..<b.count { difference |= (i < a.count ? a[i] : 0) ^ b[i] }
        return difference == 0
    }

    static func normalizedOrigin(_ origin: String) -> String {
        var o = origin.lowercased()
        while o.hasSuffix("/") { o.removeLast() }
        return o
    }

    /// `example.org:8443` of `https://example.org:8443`.
    static func host(ofOrigin origin: String) -> String? {
        // By hand: `range(of:)` is Foundation's, which the binary does not load.
        let chars = Array(origin.utf8)
        guard let at = chars.indices.first(where: { chars[$0...].starts(with: "://".utf8) }) else { return nil }
        let host = String(decoding: chars[(at + 3)...], as: UTF8.self).lowercased()
        return host.isEmpty ? nil : String(host.prefix { $0 != "/" })
    }
}
