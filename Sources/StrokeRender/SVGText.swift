import StrokeProtocol

/// Small helpers for writing SVG text by hand, deterministically (golden files compare bytes).
enum SVGText {
    /// `v` with one decimal, trailing zero trimmed: enough for a tenth of a pixel.
    static func n(_ v: Double) -> String { JSONWriter.fixed(v, decimals: 1) }

    /// Escapes text for element content and attribute values.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // XML 1.0 has no way to write most control characters: leave them out.
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case _ where c.value < 0x20: continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Seconds with exactly two decimals ("0.00", "24.13").
    static func seconds(_ microseconds: Int64) -> String {
        let hundredths = (microseconds < 0 ? -1 : 1) * ((abs(microseconds) + 5_000) / 10_000)
        let whole = abs(hundredths) / 100
        let fraction = abs(hundredths) % 100
        return (hundredths < 0 ? "-" : "") + "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}

/// Stroke colours: Tableau 10, distinct for neighbouring strokes and readable on white.
enum Palette {
    static let colors = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]

    /// Colour `index` (from 0), repeating after ten.
    static func color(_ index: UInt64) -> String { colors[Int(index % UInt64(colors.count))] }
}
