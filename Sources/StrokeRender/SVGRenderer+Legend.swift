extension SVGRenderer.Panel {
    /// Under the drawing area: the device, its size, what the picture holds, and a key.
    func writeLegend(into out: inout String) {
        let x = SVGText.n(left)
        var y = top + drawingHeight + SVGRenderer.legendLineHeight
        func line(_ text: String, bold: Bool = false) {
            out += "<text x=\"\(x)\" y=\"\(SVGText.n(y))\"\(bold ? " font-weight=\"bold\"" : "")>\(SVGText.escape(text))</text>\n"
            y += SVGRenderer.legendLineHeight
        }
        out += "<g class=\"legend\" fill=\"#333333\">\n"
        line("device \(device.id): \(device.name) (\(device.kind))" + (device.described ? "" : ", no longer present"), bold: true)
        line(sizeText)
        line(contentText)
        writeKey(y: y, into: &out)
        out += "</g>\n"
    }

    private var sizeText: String {
        guard device.described else { return "not described by the daemon: drawn over the extent of its strokes" }
        let ranges = "X \(device.x.minimum)…\(device.x.maximum), Y \(device.y.minimum)…\(device.y.maximum)"
        if let mm = millimetres {
            return "\(SVGText.n(mm.x)) × \(SVGText.n(mm.y)) mm (\(ranges); \(device.x.resolution)/\(device.y.resolution) units per mm)"
        }
        return "\(ranges), no resolution: aspect from the axis ranges"
    }

    private var contentText: String {
        var ended = 0
        var inProgress = 0
        var reasons: [String: Int] = [:]
        for s in strokes {
            switch s.state {
            case .ended: ended += 1
            case .inProgress: inProgress += 1
            case .cancelled(let reason): reasons[reason, default: 0] += 1
            }
        }
        let cancelled = reasons.values.reduce(0, +)
        var parts: [String] = []
        if ended > 0 { parts.append("\(ended) ended") }
        if cancelled > 0 {
            let detail = reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            parts.append("\(cancelled) cancelled (\(detail))")
        }
        if inProgress > 0 { parts.append("\(inProgress) still down") }
        var text = strokes.count == 1 ? "1 stroke" : "\(strokes.count) strokes"
        if !parts.isEmpty { text += ": " + parts.joined(separator: ", ") }
        // The earliest and latest of every point: a stroke's first point is not its earliest when
        // the recording's clock stepped back (the span came out negative).
        if let first = strokes.lazy.flatMap({ $0.points.lazy.map(\.time) }).min(), let last = strokes.lazy.map({ max($0.lastTime, $0.points.lazy.map(\.time).max() ?? .min) }).max() {
            let span = SVGText.span
            text += " · \(SVGText.seconds(span(last, first))) s, from \(SVGText.seconds(span(first, origin))) to \(SVGText.seconds(span(last, origin))) s"
        }
        let outside = strokes.reduce(0) { $0 + $1.points.filter(isOutside).count }
        if outside > 0 { text += " · \(outside) point\(outside == 1 ? "" : "s") outside the axis range, drawn on the edge" }
        return text
    }

    /// Glyphs for the marks, then the width source, then (colour by slot) the slots' colours.
    private func writeKey(y start: Double, into out: inout String) {
        var x = left
        var baseline = start
        let cy = SVGText.n(baseline - 4)
        var y = SVGText.n(baseline)
        func label(_ text: String, width: Double) {
            out += "<text x=\"\(SVGText.n(x))\" y=\"\(y)\">\(SVGText.escape(text))</text>\n"
            x += width
        }
        out += "<circle cx=\"\(SVGText.n(x + 4))\" cy=\"\(cy)\" r=\"3.5\" fill=\"#666666\"/>\n"
        x += 12
        label("began", width: 52)
        out += "<line x1=\"\(SVGText.n(x))\" y1=\"\(cy)\" x2=\"\(SVGText.n(x + 26))\" y2=\"\(cy)\" stroke=\"#666666\" stroke-width=\"3\" stroke-linecap=\"round\" stroke-dasharray=\"6 9\"/>\n"
        x += 32
        label("cancelled", width: 78)
        out += "<circle cx=\"\(SVGText.n(x + 6))\" cy=\"\(cy)\" r=\"6\" fill=\"none\" stroke=\"#666666\" stroke-width=\"1.5\"/>\n"
        x += 16
        label("still down", width: 82)
        let widthText: String
        if let fixed = options.lineWidth {
            widthText = "width: \(SVGText.n(fixed)) px"
        } else if let axis = widthAxis {
            widthText = "width: \(axis.rawValue)"
        } else {
            widthText = "width: fixed"
        }
        label(widthText, width: 130)
        if strokes.contains(where: { $0.flags.contains("eraser") }) {
            out += "<line x1=\"\(SVGText.n(x))\" y1=\"\(cy)\" x2=\"\(SVGText.n(x + 26))\" y2=\"\(cy)\" stroke=\"#666666\" stroke-width=\"5\" stroke-linecap=\"round\"/>\n"
            out += "<line x1=\"\(SVGText.n(x))\" y1=\"\(cy)\" x2=\"\(SVGText.n(x + 26))\" y2=\"\(cy)\" stroke=\"#ffffff\" stroke-width=\"3\" stroke-linecap=\"round\"/>\n"
            x += 32
            label("eraser", width: 60)
        }
        guard options.colorBy == .slot else { return }
        x = left
        baseline += SVGRenderer.legendLineHeight
        y = SVGText.n(baseline)
        let right = left + max(width, SVGRenderer.minimumWidth - 2 * SVGRenderer.margin)
        for slot in Set(strokes.map(\.slot)).sorted() {
            guard x + 64 <= right else {
                label("…", width: 0)
                break
            }
            out += "<rect x=\"\(SVGText.n(x))\" y=\"\(SVGText.n(baseline - 10))\" width=\"10\" height=\"10\" fill=\"\(Palette.color(UInt64(max(slot, 0))))\"/>\n"
            x += 14
            label("slot \(slot)", width: slot < 10 ? 50 : 58)
        }
    }
}
