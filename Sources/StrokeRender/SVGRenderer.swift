/// Draws a scene as an SVG document, with no dependency: one panel per device, stacked, each in
/// the device's aspect ratio (from millimetres when both axes have a resolution, else from the
/// axis ranges), with a legend under it.
///
/// Each stroke is one `<path class="stroke STATE" data-stroke="ID" …>`: a polyline with round
/// caps and joins, in raw sensor coordinates (before any calibration) scaled to the panel.
/// Completed strokes are drawn in order, then those still in progress on top. A filled dot marks
/// where a stroke began, cancelled strokes are dashed, and a ring marks the last point of a stroke
/// still down. Points outside the device's declared axis range are drawn on the panel's edge (the
/// legend counts them).
public struct SVGRenderer: Sendable {
    public enum ColorBy: String, Hashable, Sendable, CaseIterable {
        /// One colour per stroke (its id modulo the palette, so a stroke keeps its colour across pictures).
        case stroke
        /// One colour per kernel slot.
        case slot
    }

    public struct Options: Hashable, Sendable {
        /// The longer side of each device's drawing area, in pixels.
        public var size: Double = 1000
        public var colorBy: ColorBy = .stroke
        /// Every stroke this wide (pixels) instead of from pressure or touch major.
        public var lineWidth: Double?
        /// Write each stroke's id beside its beginning.
        public var labels = false
        /// Draw hover traces (thin, dashed, grey) under the strokes.
        public var hover = false

        public init(
            size: Double = 1000, colorBy: ColorBy = .stroke, lineWidth: Double? = nil, labels: Bool = false,
            hover: Bool = false
        ) {
            self.size = size
            self.colorBy = colorBy
            self.lineWidth = lineWidth
            self.labels = labels
            self.hover = hover
        }
    }

    static let margin = 24.0
    static let legendLineHeight = 18.0
    static let minimumWidth = 560.0

    public var options: Options

    public init(options: Options = Options()) { self.options = options }

    /// The SVG document for `scene`.
    public func render(_ scene: RenderScene) -> String {
        var panels: [Panel] = []
        var top = Self.margin
        for device in scene.devices {
            let strokes = scene.strokes.filter { $0.device == device.id }
            var panel = Panel(device: device, strokes: strokes, top: top, options: options, origin: scene.origin)
            if options.hover { panel.hover = scene.hover.filter { $0.device == device.id } }
            top += panel.height + Self.margin
            panels.append(panel)
        }
        let width = max(Self.minimumWidth, (panels.map(\.width).max() ?? 0) + 2 * Self.margin)
        let height = max(top, 2 * Self.margin)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(SVGText.n(width))" height="\(SVGText.n(height))" \
            viewBox="0 0 \(SVGText.n(width)) \(SVGText.n(height))" font-family="DejaVu Sans, Verdana, sans-serif" font-size="13">
            <title>strokes: \(SVGText.escape(scene.title))</title>
            <rect width="\(SVGText.n(width))" height="\(SVGText.n(height))" fill="#ffffff"/>

            """
        if panels.isEmpty {
            out += "<text x=\"\(SVGText.n(Self.margin))\" y=\"\(SVGText.n(Self.margin + 13))\" fill=\"#333333\">no devices</text>\n"
        }
        for panel in panels { panel.write(into: &out) }
        out += "</svg>\n"
        return out
    }
}
