import Foundation
import StrokeDaemon
import Testing

/// A resume larger than NIO's write buffer, over WebSocket and Server-Sent Events: NIO called the
/// daemon back from inside a write, and the callback's write came before the rest of the batch
/// (found by an adversary: over WebSocket seqs 1…312, 320…4232, 313…319; over SSE a chunk's data
/// followed by the next chunk's size instead of its CRLF).
@Suite(.serialized) struct ResumeOrderTests {
    static let tenFingers = "01-wacom-dth2242-touchscreen-10finger.evemu"

    @Test func aLongResumeOverWebSocketArrivesWholeAndInOrder() async throws {
        var settings = Daemon.Settings()
        settings.resumeLimit = 8192
        let d = try await HTTPTestDaemon(recording: ResumeOrderTests.tenFingers, settings: settings)
        try await d.advance()
        let last = try await d.onLoop { Int($0.hub.seq) }
        #expect(last > 4000)
        let ws = try WSClient(port: d.port)
        #expect(try ws.message()["type"] as? String == "hello")
        try ws.send(#"{"id":1,"request":"subscribe","resumeAfter":0}"#)
        #expect(try ws.message()["resumed"] as? Bool == true)
        var seqs: [Int] = []
        while seqs.count < last { seqs.append(try #require(try ws.message()["seq"] as? Int)) }
        #expect(seqs == Array(1...last))
        try await d.stop()
    }

    @Test func aLongResumeOverServerSentEventsIsWellFormedAndInOrder() async throws {
        var settings = Daemon.Settings()
        settings.resumeLimit = 8192
        let d = try await HTTPTestDaemon(recording: ResumeOrderTests.tenFingers, settings: settings)
        try await d.advance()
        let last = try await d.onLoop { Int($0.hub.seq) }
        let (_, sse) = try d.events(headers: ["Last-Event-ID": "0"])
        var seqs: [Int] = []
        // The reader checks each chunk's CRLF (`SSEReader`).
        while seqs.count < last, let e = try sse.next() {
            if let id = e.id { seqs.append(try #require(Int(id))) }
        }
        #expect(seqs == Array(1...last))
        try await d.stop()
    }
}
