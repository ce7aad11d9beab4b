import Foundation
import StrokeProtocol
import Testing

/// The protocol's compatibility rules (docs/protocol.md): a client ignores keys, types, flags,
/// reasons and codes it does not know; and `Request` says what the daemon's parser reads.
@Suite struct WireCompatibilityTests {
    @Test func anUnknownTypeIsKeptWhole() throws {
        let line = #"{"type":"flick","seq":9,"fingers":[1,2],"name":"pinch"}"#
        guard case .unknown(let type, let raw) = try ServerMessage(line: line) else {
            Issue.record("decoded as a known type")
            return
        }
        #expect(type == "flick")
        #expect(raw["fingers"] == .array([.integer(1), .integer(2)]))
        #expect(try WireCheck.problem(line)?.contains("unknown") == true)
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(ServerMessage(line: line)))
        #expect(again == raw)
    }

    /// The gesture type's keys (docs/protocol.md, "Gesture events") decode and re-encode to the
    /// same object; unknown kinds, phases, directions and edges are kept.
    @Test func aGestureRoundTrips() throws {
        let line = #"{"type":"gesture","gesture":3,"kind":"swipe","phase":"end","device":1,"time":812,"fingers":4,"strokes":[5,6,7,8],"x":410.5,"y":220.25,"nx":0.51,"ny":0.46,"mmX":120.5,"mmY":60.25,"duration":350000,"dnx":0.01,"dny":0.3,"dmmX":2.5,"dmmY":61,"direction":"down","velocity":240.5,"normalizedVelocity":1.2}"#
        guard case .gesture(let g) = try ServerMessage(line: line) else {
            Issue.record("not decoded as a gesture")
            return
        }
        #expect(g.kind == .swipe && g.phase == .end && g.direction == .down && g.strokes == [5, 6, 7, 8])
        #expect(g.edge == nil && g.scale == nil && g.angle == nil && g.mmX == 120.5)
        #expect(ServerMessage.gesture(g).seq == nil && ServerMessage.gesture(g).type == "gesture")
        let raw = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(ServerMessage(line: line)))
        #expect(again == raw)

        let odd = #"{"type":"gesture","gesture":4,"kind":"lasso","phase":"paused","device":1,"time":1,"fingers":1,"strokes":[],"x":0,"y":0,"nx":0,"ny":0,"duration":0,"direction":"inward","edge":"corner"}"#
        guard case .gesture(let o) = try ServerMessage(line: odd) else { return }
        #expect(o.kind == .unknown("lasso") && o.phase == .unknown("paused"))
        #expect(o.direction == .unknown("inward") && o.edge == .unknown("corner"))
    }

    @Test func unknownKeysAreIgnored() throws {
        let line = #"{"type":"goodbye","reason":"shutdown","restartIn":5}"#
        #expect(try ServerMessage(line: line) == .goodbye(Goodbye(reason: .shutdown)))
        let reply = #"{"type":"reply","id":"a","request":"ping","took":3}"#
        #expect(try ServerMessage(line: reply) == .reply(Reply(id: "a", result: .ping)))
    }

    @Test func unknownValuesOfOpenSetsArePreserved() throws {
        let cancel = #"{"type":"cancelled","seq":4,"stroke":1,"device":1,"frame":2,"slot":0,"trackingId":null,"time":5,"x":1,"y":2,"nx":0.5,"ny":1,"toolType":"7","reason":"thermal"}"#
        guard case .stroke(let e) = try ServerMessage(line: cancel) else {
            Issue.record("not a stroke event")
            return
        }
        #expect(e.kind == .cancelled && e.reason == .unknown("thermal") && e.trackingId == nil)
        #expect(e.point.toolType == .unknown("7") && e.point.pressure == nil)
        #expect(try WireCheck.problem(cancel) == nil)

        let began = #"{"type":"began","stroke":1,"device":1,"frame":2,"slot":0,"trackingId":3,"time":5,"x":1,"y":2,"nx":0.5,"ny":1,"flags":["adopted","glove"]}"#
        guard case .stroke(let b) = try ServerMessage(line: began) else { return }
        #expect(b.flags == [.adopted, .unknown("glove")])

        let error = #"{"type":"error","id":null,"error":"overheated","message":"later"}"#
        #expect(try ServerMessage(line: error) == .error(ErrorMessage(id: nil, error: .unknown("overheated"), message: "later")))
        #expect(try WireCheck.problem(error) == nil)

        let reply = #"{"type":"reply","id":2,"request":"calibrate","matrix":[1,0,0]}"#
        guard case .reply(let r) = try ServerMessage(line: reply), case .unknown("calibrate", _) = r.result else {
            Issue.record("an unknown request's reply")
            return
        }
        #expect(try WireCheck.problem(reply) == nil)
    }

    /// Every request encodes to a line the daemon's parser reads as the same request.
    @Test func requestsEncodeToWhatTheDaemonReads() throws {
        let cases: [(Request, (id: String, command: ClientRequest.Command))] = [
            (Request(id: 1, .subscribe()), ("1", .subscribe(.init()))),
            (
                Request(id: "x", .subscribe(devices: [2, 1], events: [.began, .hover], resumeAfter: 812)),
                (#""x""#, .subscribe(.init(devices: [1, 2], events: ["began", "hover"], resumeAfter: 812)))
            ),
            (Request(.unsubscribe), ("null", .unsubscribe)),
            (Request(id: 3, .devices), ("3", .devices)),
            (Request(id: 4, .live(devices: [7])), ("4", .live(devices: [7]))),
            (Request(id: 5, .live()), ("5", .live(devices: nil))),
            (
                Request(id: 6, .history(limit: 10, devices: [1], cursor: "3-9")),
                ("6", .history(limit: 10, devices: [1], cursor: .init(next: 3, end: 9)))
            ),
            (Request(id: 7, .history()), ("7", .history(limit: nil, devices: nil, cursor: nil))),
            (Request(id: 8, .ping), ("8", .ping)),
            (Request(id: 9, .stats), ("9", .stats)),
        ]
        for (request, expected) in cases {
            let line = try request.line()
            let parsed = try ClientRequest.parse(Substring(line)).get()
            #expect(parsed.id == expected.id && parsed.command == expected.command, "\(line)")
            #expect(try JSONDecoder().decode(Request.self, from: Data(line.utf8)) == request)
        }
        #expect(try Request(id: 1, .history(cursor: "0-66")).line() == #"{"cursor":"0-66","id":1,"request":"history"}"#)
    }
}

@Suite struct JSONValueTests {
    @Test func everyKindOfValueDecodesAsItself() throws {
        let line = #"{"a":null,"b":true,"c":-3,"d":18446744073709551615,"e":0.25,"f":"x","g":[1,"y",[]],"h":{}}"#
        let v = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        #expect(
            v == .object([
                "a": .null, "b": .bool(true), "c": .integer(-3), "d": .unsigned(.max), "e": .double(0.25), "f": .string("x"),
                "g": .array([.integer(1), .string("y"), .array([])]), "h": .object([:]),
            ]))
        #expect(v.difference(from: v) == nil)
        #expect(JSONValue.integer(1).sameJSON(as: .double(1)))
        #expect(v.difference(from: .object([:]))?.contains("lost") == true)
    }
}
