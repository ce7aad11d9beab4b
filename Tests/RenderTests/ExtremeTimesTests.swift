import InputCore
import StrokeRender
import Testing

/// A daemon's point times are not checked as a recording's are (adversary script 21): a stroke
/// spanning all of `Int64`, or starting at its minimum, is drawn and its legend written, not a trap.
@Suite struct ExtremeTimesTests {
    @Test(arguments: [(Int64(0), Int64.max), (Int64(-1), Int64.max), (Int64.min, Int64(0)), (Int64.min, Int64.max)])
    func theLegendSaysHowLongAStrokeSpanningInt64Lasted(first: Int64, last: Int64) throws {
        let device = RenderScene.Device(
            id: 1, name: "d", kind: "touchscreen", x: AbsInfo(minimum: 0, maximum: 500),
            y: AbsInfo(minimum: 0, maximum: 500), hasPressure: false, hasTouchMajor: false
        )
        let points = [RenderScene.Point(time: first, x: 100, y: 100), RenderScene.Point(time: last, x: 400, y: 200)]
        let scene = RenderScene(
            title: "t", devices: [device], strokes: [RenderScene.Stroke(id: 1, device: 1, slot: 0, state: .ended, points: points)])
        let svg = SVGRenderer().render(scene)
        _ = try SVGDocument(svg)
        // Each span saturates at Int64.max µs: 9223372036854.78 s.
        #expect(svg.contains("9223372036854.78 s, from 0.00 to 9223372036854.78 s"))
    }
}
