import Foundation
import StrokeProtocol
import Testing

/// The Codable message types against what the writer produces: every line of every golden
/// transcript decodes into a known type and encodes back to the same JSON object, so a key the
/// writer gains and the types do not know fails here.
@Suite struct WireTypesGoldenTests {
    @Test(arguments: GoldenTranscriptTests.goldens)
    func everyGoldenLineRoundTrips(name: String) throws {
        let text = try String(contentsOf: Fixtures.goldenDirectory.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(!lines.isEmpty)
        for (i, line) in lines.enumerated() {
            let problem = WireRoundTrip.problem(String(line))
            if let problem { Issue.record("\(name).jsonl:\(i + 1): \(problem)") }
        }
    }

    /// The check itself notices a key the types do not know.
    @Test func aKeyTheTypesDoNotKnowIsNoticed() {
        let line = #"{"type":"moved","stroke":1,"device":1,"frame":2,"slot":0,"trackingId":null,"time":5,"x":1,"y":2,"nx":0.5,"ny":1,"velocity":3}"#
        #expect(WireRoundTrip.problem(line)?.contains("velocity") == true)
        #expect(WireRoundTrip.problem(line.replacingOccurrences(of: #","velocity":3"#, with: "")) == nil)
    }
}

/// Decodes a line as `ServerMessage`, re-encodes it with `JSONEncoder`, and compares the two as
/// JSON objects.
enum WireRoundTrip {
    /// Nil when the line round-trips; otherwise what went wrong.
    static func problem(_ line: String) -> String? {
        let message: ServerMessage
        let original: JSONValue
        do {
            message = try ServerMessage(line: line)
            original = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
        } catch {
            return "does not decode: \(error)\n  \(line)"
        }
        if case .unknown(let type, _) = message { return "type \(type) decodes as unknown\n  \(line)" }
        let again: JSONValue
        do {
            again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(message))
        } catch {
            return "does not encode: \(error)"
        }
        guard let difference = original.difference(from: again) else { return nil }
        return "differs after a round trip (\(difference))\n  \(line)"
    }
}
