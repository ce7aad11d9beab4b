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
        var w = JSONWriter()
        w.field("stroke", id.rawValue)
        w.field("device", device.rawValue)
        w.field("slot", slot)
        w.field("trackingId", trackingID)
        switch state {
        case .inProgress: w.field("state", "inProgress")
        case .ended: w.field("state", "ended")
        case .cancelled(let reason):
            w.field("state", "cancelled")
            w.field("reason", reason.rawValue)
        }
        StrokeEvent.writeFlags(flags, geometry: geometry, into: &w)
        let omitted = lastPoints.map { max(0, self.points.count - max($0, 0)) } ?? 0
        if omitted > 0 { w.field("pointsOmitted", omitted) }
        var points: [UInt8] = [UInt8(ascii: "[")]
        var pw = JSONWriter()
        for (i, p) in self.points.enumerated().dropFirst(omitted) {
            if i > omitted { points.append(UInt8(ascii: ",")) }
            pw.reset()
            StrokeEvent.writePoint(p, geometry: geometry, into: &pw)
            pw.close()
            pw.withBytes { points.append(contentsOf: $0) }
        }
        points.append(UInt8(ascii: "]"))
        w.raw("points", bytes: points)
        return w.finish()
    }
}
