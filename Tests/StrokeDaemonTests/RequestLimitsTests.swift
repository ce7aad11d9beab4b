import StrokeDaemon
import StrokeProtocol
import Testing

/// Issue 11: what one request may cost the daemon is bounded, and errors quote little of it.
@Suite struct RequestLimitsTests {
    func error(_ s: String) -> ProtocolError? {
        if case .failure(let e) = ClientRequest.parse(Substring(s)) { return e }
        return nil
    }

    @Test func aHugeMalformedLineIsQuotedAsAShortEscapedExcerpt() throws {
        let line = "\u{1}\"" + String(repeating: "x", count: 10_000_000)
        let e = try #require(error(line))
        #expect(e.code == .invalidJSON)
        #expect(e.message.utf8.count < 120)
        #expect(e.message.contains(#""\u0001\"xxx"#))
        #expect(e.message.contains("…"))
        #expect(e.json.utf8.count < 200)
    }

    /// Found by a black-box test: 513 `[` on one line trapped inside `JSONDecoder` and stopped the
    /// daemon. Nesting is measured before decoding; brackets inside strings do not count.
    @Test(arguments: [
        String(repeating: "[", count: 513), String(repeating: "{\"a\":", count: 600),
        #"{"request":"ping","x":"# + String(repeating: "[", count: 33) + String(repeating: "]", count: 33) + "}",
        String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
    ])
    func deepNestingIsInvalidJSONNotACrash(_ line: String) throws {
        let e = try #require(error(line))
        #expect(e.code == .invalidJSON)
        #expect(e.message.contains("nests at most 32"))
    }

    @Test func nestingWithinTheLimitAndBracketsInStringsAreFine() throws {
        let nested = #"{"request":"ping","x":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}"
        guard case .success = ClientRequest.parse(Substring(nested)) else {
            Issue.record("32 levels refused")
            return
        }
        let inString = #"{"id":""# + String(repeating: "[{", count: 100) + #"\"","request":"ping"}"#
        guard case .success(let r) = ClientRequest.parse(Substring(inString)) else {
            Issue.record("brackets in a string refused")
            return
        }
        #expect(r.id.hasPrefix(#""[{[{"#))
        #expect(JSONSyntax.check(Array((String(repeating: "[", count: 33) + String(repeating: "]", count: 33)).utf8)) == .tooDeep)
        #expect(JSONSyntax.check(Array(#"{"a":[1,2,{"b":null}],"c":"\u00e9\n","d":-0.5e+3}"#.utf8)) == nil)
        #expect(throws: DecodingError.self) { try ServerMessage(line: String(repeating: "[", count: 513)) }
    }

    /// Found by a black-box test: JSONDecoder took these as JSON and the request ran.
    @Test(arguments: [
        #"{"id":1,"request":"ping","x":-}"#, #"{"id":1,"request":"ping","x":01}"#, #"{"id":1,"request":"ping","x":1.}"#,
        #"{"id":1,"request":"ping","x":1e}"#, #"{"id":1,"request":"ping","x":--1}"#, #"{"id":1,"request":"ping","x":"\x"}"#,
        "{\"id\":1,\"request\":\"ping\",\"x\":\"a\u{1}b\"}", #"{"id":1,"request":"ping","x":[1,]}"#,
        #"{"id":1,"request":"ping",}"#, "null", "[]", #""ping""#, #"{"id":1,"request":"ping"} {}"#, #"{"id":1 "request":"ping"}"#,
    ])
    func textThatIsNotAJSONObjectIsInvalidJSON(_ line: String) throws {
        #expect(error(line)?.code == .invalidJSON)
    }

    @Test func anUnknownRequestNameIsQuotedShort() throws {
        let e = try #require(error(#"{"request":""# + String(repeating: "y", count: 100_000) + #""}"#))
        #expect(e.code == .unknownRequest)
        #expect(e.message.utf8.count < 80)
    }

    /// Found by a black-box test: the limits counted `Character`s, and one grapheme may hold any
    /// number of combining marks ("e" and 30 000 of U+0301 was one character, 60 KB echoed back).
    @Test func limitsCountCodePointsNotGraphemes() throws {
        let grapheme = "e" + String(repeating: "\u{301}", count: 30_000)
        #expect(grapheme.count == 1)
        let id = try #require(error(#"{"id":""# + grapheme + #"","request":"ping"}"#))
        #expect(id.code == .badArgument && id.json.utf8.count < 200)
        let line = try #require(error(grapheme))
        #expect(line.code == .invalidJSON && line.json.utf8.count < 200 && line.message.contains("…"))
        let name = try #require(error(#"{"request":""# + grapheme + #""}"#))
        #expect(name.code == .unknownRequest && name.json.utf8.count < 200)
        // 256 code points still pass, whatever they are.
        let ok = String(repeating: "\u{301}", count: ClientRequest.Limits.idLength)
        guard case .success(let r) = ClientRequest.parse(Substring(#"{"id":""# + ok + #"","request":"ping"}"#)) else {
            Issue.record("an id of 256 code points was refused")
            return
        }
        #expect(r.id.contains(ok))
    }

    @Test(arguments: [
        #"{"request":"history","limit":1000001}"#,
        #"{"request":"history","limit":-1}"#,
        #"{"request":"history","cursor":"5-3"}"#,
        #"{"request":"history","cursor":"abc"}"#,
        #"{"request":"history","cursor":7}"#,
        #"{"request":"subscribe","events":["began","began","began","began","began","began","began","began","began","began","began","began","began","began","began","began","began"]}"#,
    ])
    func countsAndCursorsOutOfRangeAreBadArguments(_ line: String) throws {
        #expect(error(line)?.code == .badArgument)
    }

    @Test func listsAndIdsHaveLimits() throws {
        let devices = (0...ClientRequest.Limits.devices).map(String.init).joined(separator: ",")
        #expect(error(#"{"request":"live","devices":[\#(devices)]}"#)?.code == .badArgument)
        let id = String(repeating: "i", count: ClientRequest.Limits.idLength + 1)
        #expect(error(#"{"id":"\#(id)","request":"ping"}"#)?.code == .badArgument)
        #expect(error(#"{"id":"ok","request":"history","limit":1000000,"cursor":"3-5"}"#) == nil)
    }

    @Test func aCursorReadsBackAsItWasWritten() {
        let c = ClientRequest.HistoryCursor(next: 12, end: 40)
        #expect(ClientRequest.HistoryCursor(c.description) == c)
    }

    @Test func allowGidsMatchesSupplementaryGroups() {
        let peer = PeerCredentials(pid: 1, uid: 1000, gid: 1000)
        #expect(Daemon.allowed(peer, groups: [27, 990], uids: nil, gids: [990]))
        #expect(!Daemon.allowed(peer, groups: [27], uids: nil, gids: [990]))
        #expect(!Daemon.allowed(peer, groups: nil, uids: nil, gids: [990]))  // the kernel did not say
        #expect(Daemon.allowed(peer, groups: nil, uids: nil, gids: [1000]))  // the primary group
        #expect(Daemon.allowed(peer, groups: nil, uids: nil, gids: nil))  // no allow-list
        #expect(Daemon.allowed(PeerCredentials(pid: 1, uid: 0, gid: 0), groups: nil, uids: [5], gids: nil))
    }
}
