import Foundation
import StrokeDaemon
import Testing

/// An HTTP connection's requests are paced as a socket client's are (`RequestPacing`): past the
/// burst, each answer waits for the bytes of the ones before; every request is answered, in order.
@Suite(.serialized) struct RequestPacingHTTPTests {
    @Test func pipelinedRequestsPastTheBurstAreAnsweredLaterAndAllInOrder() async throws {
        var settings = Daemon.Settings()
        // Two answers at once, then one per 20 ms (each charged at least 2000 bytes).
        settings.requestPacing = RequestPacing(burst: 4000, bytesPerSecond: 100_000, minimumCharge: 2000)
        let d = try await HTTPTestDaemon(settings: settings)
        let c = try d.connect()
        let count = 12
        var text = ""
        for i in 0..<count { text += "GET /\(i % 2 == 0 ? "healthz" : "stats") HTTP/1.1\r\nHost: 127.0.0.1:\(d.port)\r\n\r\n" }
        let start = Date()
        try c.send(text)
        for i in 0..<count {
            var r = try c.responseHead()
            r.body = try c.take(Int(r.headers["content-length"] ?? "0") ?? 0)
            #expect(r.status == 200)
            if i % 2 == 0 { #expect(r.json["status"] as? String == "ok", "\(i)") } else { #expect(r.json["request"] as? String == "stats", "\(i)") }
        }
        // A lower bound only (a loaded machine makes it longer, never shorter): ten answers
        // waited 20 ms each for the bytes before them.
        #expect(Date().timeIntervalSince(start) >= 0.18)
        try await d.stop()
    }
}
