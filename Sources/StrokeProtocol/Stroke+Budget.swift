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

    /// The stroke objects of `jsonArray(_:budget:)`, one per stroke.
    public static func jsonObjects(_ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], budget: Int) -> [String] {
        let whole = strokes.map { $0.stroke.json(geometry: $0.geometry) }
        let size = whole.reduce(1) { $0 + $1.utf8.count + 1 }
        guard size > budget, let cap = pointCap(strokes, whole: whole, budget: budget) else { return whole }
        return strokes.indices.map { i in
            strokes[i].stroke.points.count > cap ? strokes[i].stroke.json(geometry: strokes[i].geometry, lastPoints: cap) : whole[i]
        }
    }

    /// The largest count of last points per stroke with which `strokes` fit in `budget` (1 when
    /// none does: a stroke's latest point is always sent); nil when every point fits.
    private static func pointCap(_ strokes: [(stroke: Stroke, geometry: DeviceGeometry)], whole: [String], budget: Int) -> Int? {
        // Per stroke: its whole object's bytes, and the bytes its last k points take with a comma
        // each (`tails[i][k]`), so that its object with its last k < n points takes
        // whole - (tail[n] + 1) + `,"pointsOmitted":` and the count + tail[k] + 1 bytes.
        var tails: [[Int]] = []
        var pw = JSONWriter()
        for s in strokes {
            var tail = [0]
            tail.reserveCapacity(s.stroke.points.count + 1)
            for p in s.stroke.points.reversed() {
                pw.reset()
                StrokeEvent.writePoint(p, geometry: s.geometry, into: &pw)
                pw.close()
                tail.append(tail.last! + pw.withBytes { $0.count } + 1)
            }
            tails.append(tail)
        }
        let omittedKey = #","pointsOmitted":"#.utf8.count
        func size(_ cap: Int) -> Int {
            var total = strokes.count + 1  // brackets and commas
            for (i, tail) in tails.enumerated() {
                let n = tail.count - 1
                guard cap < n else {
                    total += whole[i].utf8.count
                    continue
                }
                total += whole[i].utf8.count - (tail[n] + 1) + omittedKey + String(n - cap).utf8.count + tail[cap] + 1
            }
            return total
        }
        let most = tails.map { $0.count - 1 }.max() ?? 0
        guard size(most) > budget else { return nil }
        var low = 1, high = most  // size(high) > budget
        while high - low > 1 {
            let mid = (low + high) / 2
            if size(mid) <= budget { low = mid } else { high = mid }
        }
        return low
    }
}
