import Foundation
import StrokeDaemon
@testable import StrokeHTTP
import Testing

@Suite(.serialized) struct AccessTests {
    @Test func aTokenIsRequiredForDataAndCheckedEverywhere() async throws {
        let d = try await HTTPTestDaemon(token: "s3cret-token")
        for target in ["/devices", "/live", "/history", "/stats", "/render.svg", "/events"] {
            let r = try d.get(target)
            #expect(r.status == 401, "\(target)")
            #expect(r.headers["www-authenticate"] == "Bearer")
            #expect(r.json["error"] as? String == "forbidden")
            #expect(try d.get(target, headers: ["Authorization": "Bearer s3cret-tokeN"]).status == 401)
            #expect(try d.get(target + "?token=s3cret-toke").status == 401)
        }
        // A malformed parameter says so only to a client with the token.
        #expect(try d.get("/live?devices=x").status == 401)
        #expect(try d.get("/live?devices=x&token=s3cret-token").status == 400)
        #expect(try d.get("/nope").status == 404)
        #expect(try d.get("/devices", headers: ["Authorization": "Bearer s3cret-token"]).status == 200)
        #expect(try d.get("/devices?token=s3cret-token").status == 200)
        #expect(try d.get("/history?limit=1&token=s3cret-token").status == 200)
        // The page, its assets and the health check carry no data.
        #expect(try d.get("/").status == 200)
        #expect(try d.get("/page.js").status == 200)
        #expect(try d.get("/healthz").status == 200)
        let (head, sse) = try d.events("/events?token=s3cret-token")
        #expect(head.status == 200)
        #expect(try sse.next()?.event == "hello")
        #expect(throws: WSClient.WSRefused.self) { try WSClient(port: d.port) }
        let ws = try WSClient(port: d.port, path: "/ws?token=s3cret-token")
        #expect(try ws.message()["type"] as? String == "hello")
        let ws2 = try WSClient(port: d.port, headers: ["Authorization": "Bearer s3cret-token"])
        #expect(try ws2.message()["type"] as? String == "hello")
        try await d.stop()
    }

    @Test func webSocketOriginsAreChecked() async throws {
        let d = try await HTTPTestDaemon()
        do {
            _ = try WSClient(port: d.port, headers: ["Origin": "http://evil.example"])
            Issue.record("a foreign origin was upgraded")
        } catch let refused as WSClient.WSRefused {
            #expect(refused.status == 403)
            #expect(refused.body.jsonObject["error"] as? String == "forbidden")
        }
        for origin in ["http://127.0.0.1:\(d.port)", "http://localhost:\(d.port)"] {
            let ws = try WSClient(port: d.port, headers: ["Origin": origin])
            #expect(try ws.message()["type"] as? String == "hello")
        }
        // Data endpoints refuse a foreign origin too.
        #expect(try d.get("/devices", headers: ["Origin": "http://evil.example"]).status == 403)
        try await d.stop()

        let e = try await HTTPTestDaemon(http: { $0.allowOrigins = ["https://paint.example.org"] })
        let ws = try WSClient(port: e.port, headers: ["Origin": "https://paint.example.org"])
        #expect(try ws.message()["type"] as? String == "hello")
        #expect(throws: WSClient.WSRefused.self) { try WSClient(port: e.port, headers: ["Origin": "http://127.0.0.1:\(e.port)"]) }
        try await e.stop()
    }

    @Test func aForeignHostIsRefusedWithoutAToken() async throws {
        let d = try await HTTPTestDaemon()
        // DNS rebinding: a page on evil.example whose name now points at 127.0.0.1.
        let c = try d.connect()
        try c.send("GET /devices HTTP/1.1\r\nHost: evil.example:\(d.port)\r\n\r\n")
        let r = try c.responseHead()
        #expect(r.status == 403)
        #expect(try d.get("/devices").status == 200)
        // An absolute-form target's authority is the request's host (RFC 9112 §3.2.2), whatever
        // `Host` says (an adversary's finding: a good `Host` let it pass).
        for (target, status) in [("http://evil.example/devices", 403), ("http://127.0.0.1:\(d.port)/devices", 200)] {
            let a = try d.connect()
            try a.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(d.port)\r\n\r\n")
            #expect(try a.responseHead().status == status, "\(target)")
        }
        try await d.stop()
    }

    /// Two `Host`s (RFC 9112 §3.2), `Origin`s or `Authorization`s are a 400, whichever comes
    /// first: the check read only the first, so the listener's own name first and a foreign one
    /// after was served (adversary 13). A WebSocket upgrade is refused the same way.
    @Test func aRepeatedAccessHeaderIsABadRequest() async throws {
        let d = try await HTTPTestDaemon()
        let good = "Host: 127.0.0.1:\(d.port)\r\n"
        for (path, headers) in [
            ("/stats", good + "Host: evil.example\r\n"), ("/stats", "Host: evil.example\r\n" + good),
            ("/stats", good + "Origin: http://127.0.0.1:\(d.port)\r\nOrigin: http://evil.example\r\n"),
            ("/stats", good + "Authorization: Bearer a\r\nAuthorization: Bearer b\r\n"),
            ("/ws", good + "Host: evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"),
        ] {
            let c = try d.connect()
            try c.send("GET \(path) HTTP/1.1\r\n" + headers + "\r\n")
            #expect(try c.responseHead().status == 400, "\(headers)")
        }
        #expect(try d.get("/stats").status == 200)
        try await d.stop()
    }

    @Test func connectionsBeyondTheLimitGet503() async throws {
        let d = try await HTTPTestDaemon(http: { $0.maxConnections = 2 })
        let a = try d.connect()
        let b = try d.connect()
        #expect(try a.get("/healthz", port: d.port).status == 200)
        #expect(try b.get("/healthz", port: d.port).status == 200)
        let c = try d.connect()
        let refused = try c.get("/healthz", port: d.port)
        #expect(refused.status == 503)
        #expect(refused.json["error"] as? String == "tooManyClients")
        #expect(c.waitForClose(timeout: 5))
        b.hangUp()
        // Once one is gone a new one is served (the count drops when the connection closes).
        var served = false
        for _ in 0..<50 where !served {
            try await Task.sleep(for: .milliseconds(20))
            served = (try? d.get("/healthz").status) == 200
        }
        #expect(served)
        try await d.stop()
    }

    @Test func onPort80TheHostNeedsNoPort() {
        let a = HTTPAccess(listen: .tcp(host: "127.0.0.1", port: 80), port: 80, token: nil, allowOrigins: nil)
        #expect(a.check(host: "localhost", origin: "http://localhost", authorization: nil, queryToken: nil, needsToken: true) == nil)
        #expect(a.check(host: "127.0.0.1:80", origin: nil, authorization: nil, queryToken: nil, needsToken: true) == nil)
        #expect(a.check(host: "evil.example", origin: nil, authorization: nil, queryToken: nil, needsToken: true) == .host)
        let b = HTTPAccess(listen: .tcp(host: "127.0.0.1", port: 7780), port: 7780, token: nil, allowOrigins: nil)
        #expect(b.check(host: "localhost", origin: nil, authorization: nil, queryToken: nil, needsToken: true) == .host)
        // Found by a black-box test: no Host at all was let through without a token.
        #expect(b.check(host: nil, origin: nil, authorization: nil, queryToken: nil, needsToken: true) == .host)
        #expect(b.check(host: nil, origin: nil, authorization: nil, queryToken: nil, needsToken: false) == .host)
        let unix = HTTPAccess(listen: .unix(path: "/run/strokes/http.sock"), port: nil, token: nil, allowOrigins: nil)
        #expect(unix.check(host: nil, origin: nil, authorization: nil, queryToken: nil, needsToken: true) == nil)
        #expect(b.check(host: "LOCALHOST:7780", origin: "http://localhost:7780/", authorization: nil, queryToken: nil, needsToken: true) == nil)
    }

    @Test func constantTimeComparison() {
        func equal(_ a: String, _ b: String) -> Bool { HTTPAccess.constantTimeEqual(Array(a.utf8), Array(b.utf8)) }
        #expect(equal("abc", "abc"))
        #expect(!equal("abc", "abd"))
        #expect(!equal("ab", "abc"))
        #expect(!equal("abcd", "abc"))
        #expect(!equal("", "abc"))
        // 256 apart in length: the length difference is not lost in a byte's truncation.
        #expect(!equal(String(repeating: "a", count: 259), "abc"))
    }
}
