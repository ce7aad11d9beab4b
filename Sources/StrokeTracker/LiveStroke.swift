import InputCore
import MultitouchDecoder

/// A stroke in progress, under its key, with what jump detection remembers of it.
///
/// Its points are packed as they come (`PointPacker`), with the geometry they are derived with:
/// completing the stroke copies its bytes into the history instead of packing 120-byte points,
/// and motion appends a few bytes instead of a `StrokePoint`. They are kept as `StrokePoint`s
/// (`header.points`) when the tracker does not pack its history, and from the first point derived
/// with a geometry that derives points differently (a calibration changed while it was down).
struct LiveStroke: Sendable {
    var key: StrokeKey
    /// The stroke but for its points while they are packed (`points` then empty).
    var header: Stroke
    var pointCount = 1
    /// The geometry its points are packed with; nil when they are in `header.points`.
    var geometry: SharedGeometry?
    var packer: PointPacker
    /// Its last motion's distance per reference frame (`JumpDetection.judge`); 0 before the first.
    var jumpDistance: Double = 0

    /// A stroke whose first point is `point`, packed with `geometry` into `buffer` (nil: kept
    /// as points).
    init(key: StrokeKey, header: Stroke, point: StrokePoint, geometry: SharedGeometry?, buffer: [UInt8]) {
        self.key = key
        self.header = header
        self.geometry = geometry
        packer = PointPacker(buffer: buffer)
        if geometry != nil {
            packer.start(point)
        } else {
            self.header.points = [point]
        }
    }

    /// Appends the point of `sample` (read in place) at `time`, of `frame`, to the polyline
    /// (derived with `unpacked` only when the points are kept as points); returns the stroke's id.
    /// One access to the entry for the per-event path.
    @inline(__always)
    mutating func extend(
        time: Timestamp, sample: UnsafePointer<ContactSample>, frame: UInt64, geometry current: SharedGeometry?,
        unpacked: @autoclosure () -> DeviceGeometry
    ) -> StrokeID {
        if geometry !== current { switchGeometry(to: current) }
        if geometry != nil {
            packer.append(time: time, sample)
        } else {
            header.points.append(StrokePoint(time: time, sample: sample.pointee, geometry: unpacked()))
        }
        pointCount += 1
        header.lastFrame = frame
        return header.id
    }

    /// Appends `point`, derived from `sample` with `current`.
    @inline(__always)
    mutating func append(_ point: StrokePoint, sample: ContactSample, geometry current: SharedGeometry?) {
        // Compared in place: binding `geometry` first retained and released it per point.
        if geometry !== current { switchGeometry(to: current) }
        if geometry != nil {
            packer.append(time: point.time, sample)
        } else {
            header.points.append(point)
        }
        pointCount += 1
    }

    /// Its latest point: the packer's last, derived again (packed points re-derive alike with
    /// `geometry`, the packing's premise), or the last of `header.points`. Not kept as a
    /// `StrokePoint`: a copy of 120 bytes per motion for what lifts, jumps and pens read.
    var last: StrokePoint {
        guard let g = geometry else { return header.points[header.points.count - 1] }
        return StrokePoint(time: packer.lastTime, sample: packer.lastSample, geometry: g.geometry)
    }

    /// Its latest point's time and position, raw (what jump detection reads per motion).
    @inline(__always)
    var lastRaw: (time: Timestamp, x: Int32, y: Int32) {
        guard geometry != nil else {
            let p = header.points[header.points.count - 1]
            return (p.time, p.x, p.y)
        }
        return (packer.lastTime, packer.lastSample.x, packer.lastSample.y)
    }

    /// The points so far were packed with `old`, the next one is derived with `new`: packing goes on
    /// with `new` if it derives alike, else the points are unpacked and kept as points from now on.
    private mutating func switchGeometry(to new: SharedGeometry?) {
        guard let old = geometry else { return }
        if let new, new.derivesLike(old) {
            geometry = new
            return
        }
        header.points = PointPacking.unpack(packer.bytes, count: pointCount, geometry: old.geometry)
        geometry = nil
    }

    /// The stroke with its points.
    var stroke: Stroke {
        guard let g = geometry else { return header }
        var s = header
        s.points = PointPacking.unpack(packer.bytes, count: pointCount, geometry: g.geometry)
        return s
    }

    /// The stroke as the history keeps it, in `state`.
    func completed(_ state: Stroke.State) -> CompletedStroke {
        var h = header
        h.state = state
        guard let g = geometry else { return CompletedStroke(unpacked: h) }
        return CompletedStroke(h, packed: packer.bytes, count: pointCount, geometry: g)
    }
}

extension Array where Element == LiveStroke {
    /// Removes the element at `index`, moving the last one into its place (order is not kept).
    mutating func swapRemove(at index: Int) -> LiveStroke {
        swapAt(index, count - 1)
        return removeLast()
    }
}
