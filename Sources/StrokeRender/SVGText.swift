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
            // XML 1.0 has no way to write most control characters, nor U+FFFE and U+FFFF (its
            // `Char` production): leave them out.
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case _ where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: continue
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// Seconds with exactly two decimals ("0.00", "24.13"), for any `Int64` (a hostile daemon's
    /// times reach its limits).
    static func seconds(_ microseconds: Int64) -> String {
        let m = microseconds.magnitude
        let hundredths = m / 10_000 + (m % 10_000 >= 5_000 ? 1 : 0)
        let whole = hundredths / 100
        let fraction = hundredths % 100
        return (microseconds < 0 && hundredths > 0 ? "-" : "") + "\(whole)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// `a - b`, clamped to `Int64`'s range.
    static func span(_ a: Int64, _ b: Int64) -> Int64 {
        let (d, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (a < b ? .min : .max) : d
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
