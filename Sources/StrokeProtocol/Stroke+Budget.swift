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

    /// The stroke objects of `jsonArray(_:budget:)`, one per stroke. Each point is encoded once,
    /// and only the last ones that could fit (`EncodedPoints`).
    public static func jsonObjects(_ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], budget: Int) -> [String] {
        let encoded = strokes.map { EncodedPoints($0.stroke, geometry: $0.geometry, byteLimit: budget) }
        let cap = pointCap(strokes, encoded, budget: budget)
        return strokes.indices.map { i in
            encoded[i].json(of: strokes[i].stroke, geometry: strokes[i].geometry, lastPoints: min(cap ?? .max, encoded[i].count))
        }
    }

    /// The largest count of last points per stroke with which the strokes fit in `budget` (1 when
    /// none does: a stroke's latest point is always sent); nil when every point fits. A stroke
    /// not wholly encoded does not fit whole: its encoded points alone exceed `budget`.
    private static func pointCap(
        _ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], _ encoded: [EncodedPoints], budget: Int
    ) -> Int? {
        let omittedKey = #","pointsOmitted":"#.utf8.count
        func digits(_ n: Int) -> Int { String(n).utf8.count }
        // Each object without its points and without `pointsOmitted`: its object with no point,
        // less the `pointsOmitted` that has (a stroke with no point has none).
        let header = strokes.indices.map { i in
            let e = encoded[i]
            let empty = e.json(of: strokes[i].stroke, geometry: strokes[i].geometry, lastPoints: 0).utf8.count
            return empty - (e.count > 0 ? omittedKey + digits(e.count) : 0)
        }
        // A stroke's object with its last k < n points: the header, the points it keeps, and
        // `,"pointsOmitted":` with the count it leaves out.
        func size(_ cap: Int) -> Int {
            var total = encoded.count + 1  // brackets and commas
            for (e, h) in zip(encoded, header) {
                total += h + e.tailBytes(min(cap, e.count))
                if cap < e.count { total += omittedKey + digits(e.count - cap) }
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
