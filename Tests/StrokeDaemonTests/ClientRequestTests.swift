import StrokeProtocol
import Testing

@Suite struct ClientRequestTests {
    func parse(_ s: String) -> Result<ClientRequest, ProtocolError> { ClientRequest.parse(Substring(s)) }

    @Test func subscribeWithFiltersAndResume() throws {
        let r = try parse(#"{"id":3,"request":"subscribe","devices":[1,2],"events":["began"],"resumeAfter":41,"extra":true}"#).get()
        #expect(r.id == "3")
        #expect(r.command == .subscribe(.init(devices: [1, 2], events: ["began"], resumeAfter: 41)))
    }

    @Test func stringIdsAreEchoedAsJSON() throws {
        #expect(try parse(#"{"id":"a\"b","request":"ping"}"#).get().id == #""a\"b""#)
        #expect(try parse(#"{"request":"ping"}"#).get().id == "null")
    }

    @Test(arguments: [
        (#"{"request":1}"#, "badArgument"),
        (#"{"id":true,"request":"ping"}"#, "badArgument"),
        (#"{"id":1.5,"request":"ping"}"#, "badArgument"),
        (#"{"id":1}"#, "badArgument"),
        (#"{"request":"history","limit":-1}"#, "badArgument"),
        (#"{"request":"subscribe","devices":[-1]}"#, "badArgument"),
        (#"{"request":"subscribe","resumeAfter":"x"}"#, "badArgument"),
        (#"{"request":"fly"}"#, "unknownRequest"),
        ("", "invalidJSON"),
        ("{", "invalidJSON"),
        ("42", "invalidJSON"),
    ])
    func rejects(_ line: String, _ code: String) {
        guard case .failure(let e) = parse(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(e.code.rawValue == code)
        #expect(e.json.hasPrefix(#"{"type":"error","id":"#))
    }

    /// Found by an adversarial run: a value of the wrong type or out of range lost the request's
    /// id (`"id":null`) and was called invalid JSON.
    @Test(arguments: [
        #"{"id":7,"request":"subscribe","devices":"1"}"#,
        #"{"id":7,"request":"history","limit":"5"}"#,
        #"{"id":7,"request":42}"#,
        #"{"id":7,"request":"history","limit":1.5}"#,
        #"{"id":7,"request":"subscribe","devices":[1.5]}"#,
        #"{"id":7,"request":"subscribe","resumeAfter":18446744073709551615}"#,
        #"{"id":7,"request":"subscribe","devices":[18446744073709551616]}"#,
    ])
    func aWrongValueIsABadArgumentThatKeepsTheId(_ line: String) {
        guard case .failure(let e) = parse(line) else {
            Issue.record("accepted \(line)")
            return
        }
        #expect(e.code.rawValue == "badArgument", "\(line)")
        #expect(e.json.hasPrefix(#"{"type":"error","id":7,"#), "\(e.json)")
    }
}
