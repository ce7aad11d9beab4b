import StrokeRender
import Testing

/// Pens in the picture: pressure widths, an eraser drawn hollow, hover only when asked.
@Suite struct PenRenderTests {
    @Test func eraserStrokesAreHollowAndNamedInTheLegend() throws {
        let scene = try RenderFixtures.scene("17-wacom-cintiq12wx-pen-and-eraser.evemu")
        #expect(scene.strokes.map(\.flags) == [[], ["eraser"]])
        let svg = SVGRenderer().render(scene)
        #expect(svg.components(separatedBy: "<path class=\"eraser\"").count == 2)
        #expect(svg.contains(">eraser</text>"))
        #expect(svg.contains("width: pressure"))
    }

    @Test func hoverIsDrawnOnlyWithTheOption() throws {
        let scene = try RenderFixtures.scene("16-wacom-cintiq13hd-pen-hover-tilt.evemu")
        // Every hover event of 16, proximityIn to proximityOut, as three traces: the pen touches
        // twice, and a touch interrupts the hover (no line from touch-down to lift).
        #expect(scene.hover.map(\.points.count) == [6, 26, 10])
        #expect(!SVGRenderer().render(scene).contains("class=\"hover\""))
        let svg = SVGRenderer(options: .init(hover: true)).render(scene)
        #expect(svg.contains("<g class=\"hover\""))
        // The proximity-out frame's zeroed axes are not part of the trace.
        #expect(!svg.contains("M24 24") && !svg.contains("L24 24"))
    }
}
