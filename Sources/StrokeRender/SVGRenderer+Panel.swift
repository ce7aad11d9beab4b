extension SVGRenderer {
    /// One device's drawing area and legend.
    struct Panel {
        let device: RenderScene.Device
        /// Completed (ended, cancelled) strokes in order, then those in progress.
        let strokes: [RenderScene.Stroke]
        let options: Options
        let origin: Int64
        let left = SVGRenderer.margin
        let top: Double
        let width: Double
        let drawingHeight: Double
        /// The raw ranges the drawing area spans.
        let xRange: ClosedRange<Double>
        let yRange: ClosedRange<Double>
        /// Millimetres across, when both axes have a resolution.
        let millimetres: (x: Double, y: Double)?
        let widthAxis: WidthAxis?
        /// Hover traces to draw (only with `Options.hover`).
        var hover: [RenderScene.HoverTrace] = []

        enum WidthAxis: String {
            case pressure
            case touchMajor = "touch major"

            func value(_ p: RenderScene.Point) -> Int32? {
                switch self {
                case .pressure: return p.pressure
                case .touchMajor: return p.touchMajor
                }
            }
        }

        /// Device, size, content, key, and the slots' colours when colouring by slot.
        var legendLines: Double { options.colorBy == .slot ? 5 : 4 }

        var height: Double { drawingHeight + legendLines * SVGRenderer.legendLineHeight + 10 }

        init(device: RenderScene.Device, strokes: [RenderScene.Stroke], top: Double, options: Options, origin: Int64) {
            self.device = device
            self.strokes = strokes.filter { $0.state != .inProgress } + strokes.filter { $0.state == .inProgress }
            self.top = top
            self.options = options
            self.origin = origin
            // An axis with min > max (a daemon's device list is not checked as a recording's
            // header is) or zero width has no usable range: the strokes' extent is used instead.
            let usable = device.described && device.x.minimum < device.x.maximum && device.y.minimum < device.y.maximum
            var xr = usable ? Double(device.x.minimum)...Double(device.x.maximum) : 0...0
            var yr = usable ? Double(device.y.minimum)...Double(device.y.maximum) : 0...0
            if !usable {
                // No usable axis ranges: span what the strokes cover.
                let points = strokes.flatMap(\.points)
                let xs = points.map { Double($0.x) }
                let ys = points.map { Double($0.y) }
                xr = (xs.min() ?? 0)...(xs.max() ?? 0)
                yr = (ys.min() ?? 0)...(ys.max() ?? 0)
                // A straight or single-point stroke would make a sliver: keep each side at least a
                // quarter of the other (and one unit), around its centre.
                let xSpan = max(xr.upperBound - xr.lowerBound, (yr.upperBound - yr.lowerBound) / 4, 1)
                let ySpan = max(yr.upperBound - yr.lowerBound, xSpan / 4, 1)
                xr = Self.widen(xr, to: xSpan)
                yr = Self.widen(yr, to: ySpan)
            }
            xRange = xr
            yRange = yr
            let resolved = device.described && device.x.resolution > 0 && device.y.resolution > 0
            millimetres = resolved
                ? ((xr.upperBound - xr.lowerBound) / Double(device.x.resolution), (yr.upperBound - yr.lowerBound) / Double(device.y.resolution))
                : nil
            let aspect = millimetres.map { $0.x / $0.y } ?? (xr.upperBound - xr.lowerBound) / (yr.upperBound - yr.lowerBound)
            if aspect >= 1 {
                width = options.size
                drawingHeight = max((options.size / aspect).rounded(), 1)
            } else {
                width = max((options.size * aspect).rounded(), 1)
                drawingHeight = options.size
            }
            widthAxis = device.hasPressure ? .pressure : device.hasTouchMajor ? .touchMajor : nil
        }

        private static func widen(_ r: ClosedRange<Double>, to span: Double) -> ClosedRange<Double> {
            let extra = span - (r.upperBound - r.lowerBound)
            return extra > 0 ? (r.lowerBound - extra / 2)...(r.upperBound + extra / 2) : r
        }

        /// Panel coordinates of a raw point, clamped to the drawing area.
        func position(_ p: RenderScene.Point) -> (x: Double, y: Double) {
            let fx = (Double(p.x) - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound)
            let fy = (Double(p.y) - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound)
            return (left + min(max(fx, 0), 1) * width, top + min(max(fy, 0), 1) * drawingHeight)
        }

        func isOutside(_ p: RenderScene.Point) -> Bool {
            !xRange.contains(Double(p.x)) || !yRange.contains(Double(p.y))
        }

        func color(_ s: RenderScene.Stroke) -> String {
            switch options.colorBy {
            case .stroke: return Palette.color(s.id &- 1)  // stroke 1 takes the first colour
            case .slot: return Palette.color(UInt64(max(s.slot, 0)))
            }
        }

        /// Stroke widths: the stroke's median pressure (or touch major) placed within the range of
        /// values the picture shows for the device, from 1.5 to 9 px; 3 px without such an axis.
        func lineWidths() -> [Double] {
            if let fixed = options.lineWidth { return strokes.map { _ in fixed } }
            guard let axis = widthAxis else { return strokes.map { _ in 3 } }
            let values = strokes.map { $0.points.compactMap(axis.value).sorted() }
            let all = values.flatMap { $0 }
            guard let lo = all.min(), let hi = all.max(), hi > lo else { return strokes.map { _ in 3 } }
            return values.map { v in
                guard !v.isEmpty else { return 3 }
                let median = Double(v[v.count / 2])
                // In Double: the span of an Int32 axis (a crafted -1 ... Int32.max) overflows Int32.
                return ((1.5 + 7.5 * (median - Double(lo)) / (Double(hi) - Double(lo))) * 10).rounded() / 10
            }
        }

        func write(into out: inout String) {
            out += "<g class=\"device\" data-device=\"\(device.id)\">\n"
            out += "<rect class=\"sensor\" x=\"\(SVGText.n(left))\" y=\"\(SVGText.n(top))\" width=\"\(SVGText.n(width))\" height=\"\(SVGText.n(drawingHeight))\" fill=\"#f6f6f4\" stroke=\"#b8b8b8\"/>\n"
            let widths = lineWidths()
            if !hover.isEmpty {
                out += "<g class=\"hover\" fill=\"none\" stroke=\"#8c8c8c\" stroke-width=\"1\" stroke-dasharray=\"3 3\">\n"
                for trace in hover {
                    let d = trace.points.enumerated().map { i, p in
                        let (x, y) = position(p)
                        return (i == 0 ? "M" : "L") + SVGText.n(x) + " " + SVGText.n(y)
                    }.joined(separator: " ")
                    out += "<path d=\"\(d)\"/>\n"
                }
                out += "</g>\n"
            }
            out += "<g fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\" stroke-opacity=\"0.85\">\n"
            for (stroke, w) in zip(strokes, widths) { writePath(stroke, width: w, into: &out) }
            out += "</g>\n<g class=\"marks\">\n"
            for (stroke, w) in zip(strokes, widths) { writeMarks(stroke, width: w, into: &out) }
            out += "</g>\n"
            writeLegend(into: &out)
            out += "</g>\n"
        }

        private func writePath(_ s: RenderScene.Stroke, width w: Double, into out: inout String) {
            let state: String
            var extra = ""
            switch s.state {
            case .ended: state = "ended"
            case .inProgress: state = "inProgress"
            case .cancelled(let reason):
                state = "cancelled"
                extra = " data-reason=\"\(SVGText.escape(reason))\" stroke-dasharray=\"\(SVGText.n(2 * w)) \(SVGText.n(3 * w))\""
            }
            var d = ""
            var last = ""
            var vertices = 0
            for p in s.points {
                let (x, y) = position(p)
                let xy = SVGText.n(x) + " " + SVGText.n(y)
                if xy == last { continue }
                d += vertices == 0 ? "M" + xy : vertices == 1 ? " L" + xy : " " + xy
                vertices += 1
                last = xy
            }
            // A stroke that never left its first pixel: a zero-length segment, which round caps draw as a dot.
            if vertices == 1 { d += " L" + last }
            out += "<path class=\"stroke \(state)\" data-stroke=\"\(s.id)\" data-slot=\"\(s.slot)\" stroke=\"\(color(s))\" stroke-width=\"\(SVGText.n(w))\"\(extra) d=\"\(d)\"/>\n"
            // An eraser's stroke is drawn hollow: its outline in the stroke's colour.
            if s.flags.contains("eraser") {
                out += "<path class=\"eraser\" data-stroke=\"\(s.id)\" stroke=\"#f6f6f4\" stroke-opacity=\"1\" stroke-width=\"\(SVGText.n(max(w * 0.6, 1)))\"\(extra) d=\"\(d)\"/>\n"
            }
        }

        private func writeMarks(_ s: RenderScene.Stroke, width w: Double, into out: inout String) {
            let c = color(s)
            if !s.clippedStart, let first = s.points.first {
                let (x, y) = position(first)
                out += "<circle class=\"began\" data-stroke=\"\(s.id)\" cx=\"\(SVGText.n(x))\" cy=\"\(SVGText.n(y))\" r=\"\(SVGText.n(w / 2 + 2))\" fill=\"\(c)\" stroke=\"#ffffff\" stroke-width=\"1\"/>\n"
            }
            if s.state == .inProgress, let last = s.points.last {
                let (x, y) = position(last)
                out += "<circle class=\"down\" data-stroke=\"\(s.id)\" cx=\"\(SVGText.n(x))\" cy=\"\(SVGText.n(y))\" r=\"\(SVGText.n(w / 2 + 5))\" fill=\"none\" stroke=\"\(c)\" stroke-width=\"1.5\"/>\n"
            }
            if options.labels, let first = s.points.first {
                let (x, y) = position(first)
                out += "<text class=\"label\" x=\"\(SVGText.n(x + w / 2 + 4))\" y=\"\(SVGText.n(y - w / 2 - 4))\" font-size=\"11\" fill=\"#333333\">\(s.id)</text>\n"
            }
        }
    }
}
