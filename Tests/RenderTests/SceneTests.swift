import Foundation
import InputCore
import StrokeRecording
import StrokeRender
import StrokeReplay
import StrokeTracker
import StrokeProtocol
import Testing

/// Building scenes: events folded back into strokes, protocol objects read back, filters, and
/// the cases real recordings do not have (cancelled, out of range, undescribed devices).
@Suite struct SceneTests {
    /// Folding the event stream gives, for every ended stroke, the polyline the tracker keeps in
    /// its history (what a daemon's `history` reply carries).
    @Test(arguments: RenderFixtures.all)
    func endedStrokesMatchTheTrackersHistory(_ name: String) throws {
        var replayer = try Replayer(recording: try RecordingReader.read(path: RenderFixtures.path(name)), historyLimit: 1 << 20)
        _ = try replayer.runToEnd()
        let history = replayer.tracker.completed.map(\.stroke).sorted { $0.id < $1.id }  // kept in order of ending
        let scene = try RenderFixtures.scene(name)
        let ended = scene.strokes.filter { $0.state == .ended }
        #expect(!ended.isEmpty)
        #expect(ended.map(\.id) == history.map(\.id.rawValue))
        for (a, b) in zip(ended, history) {
            let same = a.points.map { [$0.time, Int64($0.x), Int64($0.y)] } == b.points.map { [$0.time.microseconds, Int64($0.x), Int64($0.y)] }
            #expect(same, "stroke \(a.id): \(a.points.count) points folded, \(b.points.count) in the history")
        }
        #expect(scene.strokes.filter { $0.state == .inProgress }.map(\.id) == replayer.tracker.live.map(\.id.rawValue))
    }

    /// A history reply's stroke objects read back into the same strokes.
    @Test func strokeObjectsReadBack() throws {
        let name = "05-nexus4-touch_dev-mt-only-4finger.evemu"
        var replayer = try Replayer(recording: try RecordingReader.read(path: RenderFixtures.path(name)), historyLimit: 1 << 20)
        _ = try replayer.runToEnd()
        let scene = try RenderFixtures.scene(name)
        for stroke in replayer.tracker.completed.map(\.stroke) {
            let json = stroke.json(geometry: replayer.tracker.geometry(of: stroke.device)!)
            let decoded = try RenderScene.Stroke(try JSONDecoder().decode(StrokeObject.self, from: Data(json.utf8)))
            var expected = try #require(scene.strokes.first { $0.id == decoded.id })
            expected.endTime = nil  // a stroke object has only its points
            #expect(decoded == expected)
            #expect(decoded.points.allSatisfy { $0.pressure != nil && $0.touchMajor != nil && $0.orientation == nil })
        }
    }

    @Test func malformedObjectsSayWhatIsMissing() throws {
        #expect {
            try RenderScene.Stroke(StrokeObject(stroke: 1, device: 1, slot: 0, trackingId: nil, state: .ended, points: []))
        } throws: { "\($0)".contains("non-empty 'points'") }
        // What the types cannot read is a decoding error naming the key.
        #expect {
            try JSONDecoder().decode(PointObject.self, from: Data(#"{"time":1,"x":"3","y":4,"nx":0,"ny":0}"#.utf8))
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.codingPath.last?.stringValue == "x"
        }
        #expect {
            try JSONDecoder().decode(DeviceObject.self, from: Data(#"{"device":2,"x":{"min":0,"max":10,"resolution":0}}"#.utf8))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return ["name", "path", "kind", "slots", "y"].contains(key.stringValue)
        }
    }

    @Test func collectorKeepsCancelledStrokesAndJoinsMidStroke() {
        let p = { (t: Int64, x: Int32) in RenderScene.Point(time: t, x: x, y: 5) }
        var c = StrokeCollector()
        c.apply(.began(flags: ["adopted"]), stroke: 1, device: 1, slot: 0, point: p(1, 10))
        c.apply(.moved, stroke: 1, device: 1, slot: 0, point: p(2, 11))
        c.apply(.cancelled(reason: "palm"), stroke: 1, device: 1, slot: 0, point: p(3, 12))
        c.apply(.moved, stroke: 1, device: 1, slot: 0, point: p(4, 13))  // after the end: ignored
        c.apply(.moved, stroke: 2, device: 1, slot: 1, point: p(5, 20))  // joined mid-stroke
        c.apply(.ended, stroke: 2, device: 1, slot: 1, point: p(6, 20))  // lift where it was: no point
        #expect(c.strokes.count == 2)
        #expect(c.strokes[0].state == .cancelled(reason: "palm"))
        #expect(c.strokes[0].flags == ["adopted"])
        #expect(c.strokes[0].points.map(\.x) == [10, 11])
        #expect(!c.strokes[0].clippedStart)
        #expect(c.strokes[1].clippedStart)
        #expect(c.strokes[1].state == .ended)
        #expect(c.strokes[1].points.map(\.time) == [5])
        // History's ended stroke replaces the one seen in progress; an older in-progress copy does not.
        c.apply(.began(flags: []), stroke: 3, device: 1, slot: 2, point: p(7, 30))
        var ended = RenderScene.Stroke(id: 3, device: 1, slot: 2, state: .ended, points: [p(7, 30), p(8, 31)])
        c.insert(ended)
        ended.state = .inProgress
        ended.points.removeLast()
        c.insert(ended)
        #expect(c.strokes[2].state == .ended && c.strokes[2].points.count == 2)
    }

    /// A time window keeps the points inside it; strokes cut at their start get no began dot.
    @Test func timeWindowClipsStrokes() throws {
        let scene = try RenderFixtures.scene("01-wacom-dth2242-touchscreen-10finger.evemu")
        let window = scene.filtered(RenderFilter(from: 5, to: 10))
        let lower = scene.origin + 5_000_000, upper = scene.origin + 10_000_000
        #expect(!window.strokes.isEmpty && window.strokes.count < scene.strokes.count)
        #expect(window.strokes.allSatisfy { $0.points.allSatisfy { (lower...upper).contains($0.time) } })
        let clipped = window.strokes.filter(\.clippedStart)
        #expect(!clipped.isEmpty)
        for s in clipped { #expect(scene.strokes.first { $0.id == s.id }!.points.first!.time < lower) }
        let doc = try SVGDocument(SVGRenderer().render(window))
        #expect(doc.all("path", class: "stroke").count == window.strokes.count)
        #expect(doc.all("circle", class: "began").count == window.strokes.count - clipped.count)
        #expect(!doc.all("circle", class: "began").contains { c in clipped.contains { String($0.id) == c.attributes["data-stroke"] } })
    }

    @Test func strokeAndDeviceFilters() throws {
        let scene = try RenderFixtures.scene("03+11-two-devices.libinput.yml")
        #expect(scene.devices.count == 2)
        let second = scene.filtered(RenderFilter(devices: [2]))
        #expect(second.devices.map(\.id) == [2])
        #expect(!second.strokes.isEmpty && second.strokes.allSatisfy { $0.device == 2 })
        let one = scene.filtered(RenderFilter(strokes: [second.strokes[0].id]))
        #expect(one.strokes.map(\.id) == [second.strokes[0].id])
        #expect(one.devices.map(\.id) == [2])  // the device without the stroke is left out
        let doc = try SVGDocument(SVGRenderer().render(one))
        #expect(doc.all("path", class: "stroke").map { $0.attributes["data-stroke"]! } == [String(second.strokes[0].id)])
    }

    /// What real recordings here never show: cancelled and still-down strokes, a value outside
    /// the declared range, a name that needs escaping, and a device the daemon no longer describes.
    @Test func syntheticCases() throws {
        let axis = AbsInfo(minimum: 0, maximum: 1000)
        let p = { (t: Int64, x: Int32, y: Int32) in RenderScene.Point(time: t, x: x, y: y) }
        let scene = RenderScene(
            title: "a <test> & \"more\"",
            devices: [
                .init(id: 1, name: "Touch <&> \"Panel\"", kind: "touchscreen", x: axis, y: axis, hasPressure: false, hasTouchMajor: false),
                .init(id: 7, name: "device 7", kind: "other", x: .init(minimum: 0, maximum: 0), y: .init(minimum: 0, maximum: 0),
                      hasPressure: false, hasTouchMajor: false, described: false),
                .init(id: 8, name: "device 8", kind: "other", x: .init(minimum: 0, maximum: 0), y: .init(minimum: 0, maximum: 0),
                      hasPressure: false, hasTouchMajor: false, described: false),
            ],
            strokes: [
                .init(id: 1, device: 1, slot: 0, state: .cancelled(reason: "palm"), points: [p(0, 100, 100), p(10, 200, 100)]),
                .init(id: 2, device: 1, slot: 1, state: .inProgress, points: [p(20, 500, 500), p(30, 1500, 500)]),
                .init(id: 3, device: 7, slot: 0, state: .ended, points: [p(40, 300, 400), p(50, 340, 420)]),
                .init(id: 4, device: 8, slot: 0, state: .ended, points: [p(60, 10, 10), p(70, 10, 2010)]),
            ]
        )
        let doc = try SVGDocument(SVGRenderer().render(scene))
        #expect(doc.all("title").first?.text == "strokes: a <test> & \"more\"")
        let texts = doc.all("text").map(\.text)
        #expect(texts.contains("device 1: Touch <&> \"Panel\" (touchscreen)"))
        #expect(texts.contains("2 strokes: 1 cancelled (palm 1), 1 still down · 0.00 s, from 0.00 to 0.00 s · 1 point outside the axis range, drawn on the edge"))
        #expect(texts.contains("device 7: device 7 (other), no longer present"))
        let cancelled = try #require(doc.all("path", class: "cancelled").first)
        #expect(cancelled.attributes["data-reason"] == "palm" && cancelled.attributes["stroke-dasharray"] != nil)
        let down = try #require(doc.all("circle", class: "down").first)
        #expect(down.attributes["data-stroke"] == "2")
        // The point at x = 1500 lies on the right edge of the 1000-unit-wide sensor.
        let sensor = try #require(doc.all("rect", class: "sensor").first { $0.device == "1" })
        let right = sensor.number("x")! + sensor.number("width")!
        #expect(SVGDocument.vertices(doc.all("path", class: "inProgress")[0].attributes["d"]!).last!.0 == right)
        #expect(down.number("cx") == right)
        // The undescribed device spans its stroke: first point top-left, last bottom-right.
        let other = try #require(doc.all("rect", class: "sensor").first { $0.device == "7" })
        let v = SVGDocument.vertices(doc.all("path", class: "ended")[0].attributes["d"]!)
        #expect(v.first! == (other.number("x")!, other.number("y")!))
        #expect(v.last! == (other.number("x")! + other.number("width")!, other.number("y")! + other.number("height")!))
        // A vertical line gets a panel a quarter as wide as it is tall, with the line down its middle.
        let sliver = try #require(doc.all("rect", class: "sensor").first { $0.device == "8" })
        #expect(sliver.number("width") == 250 && sliver.number("height") == 1000)
        let line = SVGDocument.vertices(doc.all("path", class: "ended")[1].attributes["d"]!)
        #expect(line.map(\.0) == [sliver.number("x")! + 125, sliver.number("x")! + 125])
    }
}
