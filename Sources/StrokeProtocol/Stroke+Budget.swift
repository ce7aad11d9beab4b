import StrokeTracker

extension Stroke {
    /// `strokes` (each with its device's geometry) as a JSON array of stroke objects that takes at
    /// most `budget` bytes where it can (docs/protocol.md, "Stroke objects"): with every point when
    /// they fit; otherwise the strokes with the most points keep only their last ones, down to
    /// one count for all of them, the largest that fits (at least their latest point), and say how
    /// many they left out (`pointsOmitted`). A contact held for minutes (a resting object) made a
    /// snapshot too big for any client's queue, so every `subscribe` ended in `slowClient`.
    public static func jsonArray(_ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], budget: Int) -> String {
        "[" + jsonObjects(strokes, budget: budget).joined(separator: ",") + "]"
    }

    /// The stroke objects of `jsonArray(_:budget:)`, one per stroke. Each point is encoded once.
    public static func jsonObjects(_ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], budget: Int) -> [String] {
        let encoded = strokes.map { EncodedPoints($0.stroke, geometry: $0.geometry) }
        let whole = strokes.indices.map { i in
            encoded[i].json(of: strokes[i].stroke, geometry: strokes[i].geometry, lastPoints: encoded[i].count)
        }
        guard let cap = pointCap(encoded, whole: whole, budget: budget) else { return whole }
        return strokes.indices.map { i in
            encoded[i].count > cap ? encoded[i].json(of: strokes[i].stroke, geometry: strokes[i].geometry, lastPoints: cap) : whole[i]
        }
    }

    /// The largest count of last points per stroke with which the strokes fit in `budget` (1 when
    /// none does: a stroke's latest point is always sent); nil when every point fits.
    private static func pointCap(_ encoded: [EncodedPoints], whole: [String], budget: Int) -> Int? {
        let omittedKey = #","pointsOmitted":"#.utf8.count
        // A stroke's object with its last k < n points: its whole object less the points it
        // leaves out, plus `,"pointsOmitted":` and the count.
        func size(_ cap: Int) -> Int {
            var total = encoded.count + 1  // brackets and commas
            for (e, w) in zip(encoded, whole) {
                total += w.utf8.count
                if cap < e.count {
                    total += e.tailBytes(cap) - e.bytes.count + omittedKey + String(e.count - cap).utf8.count
                }
            }
            return total
        }
        let most = encoded.map(\.count).max() ?? 0
        guard size(most) > budget else { return nil }
        var low = 1, high = most  // size(high) > budget
        while high - low > 1 {
            let mid = (low + high) / 2
            if size(mid) <= budget { low = mid } else { high = mid }
        }
        return low
    }
}
