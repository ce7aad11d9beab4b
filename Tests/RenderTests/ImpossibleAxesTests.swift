import InputCore
import StrokeRender
import Testing

/// A device's axes as a daemon reports them are not checked as a recording's header is: an axis
/// with min > max or no width is drawn over its strokes' extent instead of trapping.
@Suite struct ImpossibleAxesTests {
    @Test(arguments: [(Int32(1000), Int32(0)), (Int32(300), Int32(300))])
    func panelSpansTheStrokesWhenAnAxisHasNoUsableRange(minimum: Int32, maximum: Int32) throws {
        let device = RenderScene.Device(
            id: 1, name: "odd", kind: "touchscreen", x: AbsInfo(minimum: minimum, maximum: maximum),
            y: AbsInfo(minimum: 0, maximum: 500), hasPressure: false, hasTouchMajor: false
        )
        let points = [RenderScene.Point(time: 0, x: 100, y: 100), RenderScene.Point(time: 10_000, x: 400, y: 200)]
        let scene = RenderScene(
            title: "odd", devices: [device], strokes: [RenderScene.Stroke(id: 1, device: 1, slot: 0, state: .ended, points: points)])
        let svg = SVGRenderer().render(scene)
        let doc = try SVGDocument(svg)
        #expect(svg.contains("<svg"))
        #expect(!svg.contains("nan") && !svg.contains("inf"), "no coordinate divides by a zero width")
        _ = doc
    }
}
