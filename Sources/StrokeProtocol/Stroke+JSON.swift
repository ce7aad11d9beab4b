import StrokeTracker

extension Stroke {
    /// The stroke with its polyline, as in snapshots and history (docs/protocol.md, "Stroke objects"):
    ///
    /// ```
    /// {"stroke":7,"device":1,"slot":0,"trackingId":21,"state":"ended","points":[{"time":1,"x":415,"y":107,"nx":0.519399,"ny":0.223382},…]}
    /// ```
    ///
    /// With `lastPoints` smaller than its point count, only its last `lastPoints` points, after
    /// `"pointsOmitted": n`, the number of its earlier points left out (`jsonArray(_:budget:)`).
    public func json(geometry: DeviceGeometry, lastPoints: Int? = nil) -> String {
        EncodedPoints(self, geometry: geometry).json(of: self, geometry: geometry, lastPoints: lastPoints ?? points.count)
    }
}

/// A stroke's points as JSON, encoded once, with where each begins: its object with all of them
/// or with only its last ones is made from these bytes.
struct EncodedPoints {
    /// The point objects, comma-separated, without brackets.
    private(set) var bytes: [UInt8] = []
    /// Where each point's object begins in `bytes`.
    private(set) var starts: [Int] = []

    init(_ stroke: Stroke, geometry: DeviceGeometry) {
        var pw = JSONWriter()
        starts.reserveCapacity(stroke.points.count)
        for p in stroke.points {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
            starts.append(bytes.count)
            pw.reset()
            StrokeEvent.writePoint(p, geometry: geometry, into: &pw)
            pw.close()
            pw.withBytes { bytes.append(contentsOf: $0) }
        }
    }

    var count: Int { starts.count }

    /// The bytes of the last `k` points (commas between them included); all of them from `count` on.
    func tailBytes(_ k: Int) -> Int { k <= 0 ? 0 : k >= count ? bytes.count : bytes.count - starts[count - k] }

    /// `stroke`'s object with its last `lastPoints` points (all when it has no more).
    func json(of stroke: Stroke, geometry: DeviceGeometry, lastPoints: Int) -> String {
        var w = JSONWriter()
        w.field("stroke", stroke.id.rawValue)
        w.field("device", stroke.device.rawValue)
        w.field("slot", stroke.slot)
        w.field("trackingId", stroke.trackingID)
        switch stroke.state {
        case .inProgress: w.field("state", "inProgress")
        case .ended: w.field("state", "ended")
        case .cancelled(let reason):
            w.field("state", "cancelled")
            w.field("reason", reason.rawValue)
        }
        StrokeEvent.writeFlags(stroke.flags, geometry: geometry, into: &w)
        let kept = min(count, max(lastPoints, 0))
        if kept < count { w.field("pointsOmitted", count - kept) }
        var points: [UInt8] = [UInt8(ascii: "[")]
        points.reserveCapacity(tailBytes(kept) + 2)
        if kept > 0 { points += bytes[starts[count - kept]...] }
        points.append(UInt8(ascii: "]"))
        w.raw("points", bytes: points)
        return w.finish()
    }
}
