import NIOCore
import StrokeDaemon
@testable import StrokeHTTP
import Testing

@Suite struct ServerSentEventTests {
    func events(_ lines: String) -> String {
        let buffer = ByteBuffer(string: lines)
        return String(buffer: ServerSentEvent.events(of: buffer, allocator: ByteBufferAllocator()))
    }

    @Test func numberedMessagesCarryTheirSeqOthersTheirType() {
        #expect(events(#"{"type":"moved","seq":42,"merged":3,"stroke":1}"# + "\n") == "id: 42\ndata: {\"type\":\"moved\",\"seq\":42,\"merged\":3,\"stroke\":1}\n\n")
        #expect(events(#"{"type":"deviceAdded","seq":1,"device":1}"# + "\n").hasPrefix("id: 1\ndata: "))
        #expect(events(#"{"type":"snapshot","seq":7,"strokes":[]}"# + "\n").hasPrefix("event: snapshot\nid: 7\ndata: "))
        #expect(events(#"{"type":"hello","protocol":1,"seq":5}"# + "\n").hasPrefix("event: hello\ndata: "))
        #expect(events(#"{"type":"reply","id":null,"request":"subscribe","seq":1}"# + "\n").hasPrefix("event: reply\ndata: "))
        #expect(events(#"{"type":"hover","phase":"motion","device":2}"# + "\n").hasPrefix("event: hover\ndata: "))
        #expect(events(#"{"type":"gesture","kind":"pinch"}"# + "\n").hasPrefix("event: gesture\ndata: "))
        // Two lines in one write: two events.
        #expect(events("{\"type\":\"began\",\"seq\":2}\n{\"type\":\"ended\",\"seq\":3}\n") == "id: 2\ndata: {\"type\":\"began\",\"seq\":2}\n\nid: 3\ndata: {\"type\":\"ended\",\"seq\":3}\n\n")
    }

    @Test func aChangedHTTPSectionNeedsARestart() throws {
        let old = try DaemonConfiguration.parse("http: {}\n", file: "a")
        let new = try DaemonConfiguration.parse("http: {listen: \"127.0.0.1:9000\"}\n", file: "b")
        #expect(DaemonConfiguration.restartKeysChanged(from: old, to: new) == ["http"])
        #expect(DaemonConfiguration.restartKeysChanged(from: old, to: old).isEmpty)
    }
}
