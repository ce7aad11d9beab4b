import Foundation
import StrokeProtocol
import StrokeReplay
import StrokeTracker
import Testing

/// Stroke objects kept within a byte budget (docs/protocol.md, "Stroke objects"): all points when
/// they fit, else the longest strokes keep their last points, down to one count, the largest that
/// fits, and say how many they left out.
@Suite struct StrokeBudgetTests {
    /// The completed strokes of recording 01, with their geometry.
    func strokes() throws -> [(stroke: Stroke, geometry: DeviceGeometry)] {
        var replayer = try Replayer(recording: try Fixtures.recording("01-wacom-dth2242-touchscreen-10finger.evemu"))
        var events: [StrokeEvent] = []
        while try replayer.next(into: &events) != nil { events.removeAll() }
        return replayer.tracker.completed.map { ($0.stroke, replayer.tracker.geometry(of: $0.device)!) }
    }

    func objects(_ json: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    }

    @Test func strokesThatFitAreWhole() throws {
        let all = try strokes()
        let whole = "[" + all.map { $0.stroke.json(geometry: $0.geometry) }.joined(separator: ",") + "]"
        #expect(Stroke.jsonArray(all, budget: whole.utf8.count) == whole)
        #expect(Stroke.jsonArray(all, budget: .max) == whole)
    }

    @Test func strokesThatDoNotFitKeepTheirLastPoints() throws {
        let all = try strokes()
        let whole = "[" + all.map { $0.stroke.json(geometry: $0.geometry) }.joined(separator: ",") + "]"
        for budget in [whole.utf8.count - 1, whole.utf8.count / 2, whole.utf8.count / 10, 20_000] {
            let json = Stroke.jsonArray(all, budget: budget)
            #expect(json.utf8.count <= budget, "budget \(budget)")
            let got = try objects(json)
            #expect(got.count == all.count)
            var caps = Set<Int>()
            var trimmed = 0
            for (object, s) in zip(got, all) {
                let points = try #require(object["points"] as? [[String: Any]])
                let omitted = object["pointsOmitted"] as? Int ?? 0
                #expect(points.count + omitted == s.stroke.points.count)
                if omitted > 0 {
                    trimmed += 1
                    caps.insert(points.count)
                    // The last points, as they are in the whole stroke.
                    let wholePoints = try #require(try objects("[" + s.stroke.json(geometry: s.geometry) + "]")[0]["points"] as? [Any])
                    #expect(Array(wholePoints.suffix(points.count)) as NSArray == points as NSArray)
                } else {
                    #expect(object["pointsOmitted"] == nil)
                }
            }
            #expect(trimmed > 0)
            #expect(caps.count == 1, "one count for every trimmed stroke")
            // The largest count that fits: one more point each does not.
            let cap = try #require(caps.first)
            let more = "[" + all.map { $0.stroke.json(geometry: $0.geometry, lastPoints: cap + 1) }.joined(separator: ",") + "]"
            #expect(more.utf8.count > budget)
        }
    }

    /// However small the budget, every stroke is there with its latest point.
    @Test func aStrokeKeepsItsLatestPoint() throws {
        let all = try strokes()
        let got = try objects(Stroke.jsonArray(all, budget: 100))
        #expect(got.count == all.count)
        for (object, s) in zip(got, all) {
            let points = try #require(object["points"] as? [[String: Any]])
            #expect(points.count == 1)
            #expect(points[0]["time"] as? Int == Int(s.stroke.points.last!.time.microseconds))
        }
    }
}
