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
/// or with only its last ones is made from these bytes. Encoded from the last point back, and only
/// as many as `byteLimit` can hold and one more: a snapshot kept within its budget does not encode
/// the tens of thousands of points a resting contact's stroke leaves out.
struct EncodedPoints {
    /// The objects of the stroke's last `encoded` points, comma-separated, without brackets.
    private(set) var bytes: [UInt8] = []
    /// Where each encoded point's object begins in `bytes`.
    private(set) var starts: [Int] = []
    /// The stroke's points, encoded or not.
    let count: Int

    init(_ stroke: Stroke, geometry: DeviceGeometry, byteLimit: Int = .max) {
        let points = stroke.points
        count = points.count
        // Last point first: each object's bytes, and where it ends, in `backward`.
        var backward: [UInt8] = []
        var ends: [Int] = []
        var pw = JSONWriter()
        var i = points.endIndex
        while i > points.startIndex, backward.count + ends.count <= byteLimit {  // commas: ends.count - 1
            i -= 1
            pw.reset()
            StrokeEvent.writePoint(points[i], geometry: geometry, into: &pw)
            pw.close()
            pw.withBytes { backward.append(contentsOf: $0) }
            ends.append(backward.count)
        }
        bytes.reserveCapacity(backward.count + ends.count)
        starts.reserveCapacity(ends.count)
        for j in ends.indices.reversed() {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
            starts.append(bytes.count)
            bytes += backward[(j == 0 ? 0 : ends[j - 1])..<ends[j]]
        }
    }

    /// How many of the last points are encoded.
    var encoded: Int { starts.count }

    /// The bytes of the last `k` points (commas between them included). Past the points encoded,
    /// more than `byteLimit` (what is encoded already exceeds it), growing with `k`.
    func tailBytes(_ k: Int) -> Int {
        if k <= 0 { return 0 }
        if k > encoded { return bytes.count + (k - encoded) }
        return bytes.count - starts[encoded - k]
    }

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
        precondition(kept <= encoded, "EncodedPoints: \(kept) points asked for, \(encoded) encoded")
        if kept < count { w.field("pointsOmitted", count - kept) }
        var points: [UInt8] = [UInt8(ascii: "[")]
        points.reserveCapacity(tailBytes(kept) + 2)
        if kept > 0 { points += bytes[starts[encoded - kept]...] }
        points.append(UInt8(ascii: "]"))
        w.raw("points", bytes: points)
        return w.finish()
    }
}
