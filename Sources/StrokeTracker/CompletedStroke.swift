import InputCore
import MultitouchDecoder

/// A stroke of the tracker's history: its header as it ended, and its points packed
/// (`PointPacking`, some 5 bytes a point) until asked for. `stroke` gives back the `Stroke`
/// exactly as the tracker held it, every `StrokePoint` bit for bit.
public struct CompletedStroke: Sendable {
    public let id: StrokeID
    public let device: DeviceID
    public let slot: Int32
    public let trackingID: Int32?
    public let flags: ContactFlags
    public let state: Stroke.State
    public let firstFrame: UInt64
    public let lastFrame: UInt64
    /// How many points its polyline has.
    public let pointCount: Int
    private let points: Points

    private enum Points: Sendable {
        /// Packed, with the geometry they were derived with (shared by a device's strokes).
        case packed([UInt8], SharedGeometry)
        /// As they were: points that the geometry does not re-derive.
        case plain([StrokePoint])
    }

    /// `stroke`, its points packed when `geometry` re-derives them.
    public init(_ stroke: Stroke, geometry: DeviceGeometry) {
        let shared = SharedGeometry(geometry)
        let packed = PointPacking.pack(stroke.points, geometry: geometry)
        self.init(stroke, pointCount: stroke.points.count, points: packed.map { .packed($0, shared) } ?? .plain(stroke.points))
    }

    /// The stroke whose header is `header` and whose `count` points are `packed` with `geometry`.
    init(_ header: Stroke, packed: [UInt8], count: Int, geometry: SharedGeometry) {
        self.init(header, pointCount: count, points: .packed(packed, geometry))
    }

    /// `stroke` as it is, its points not packed.
    init(unpacked stroke: Stroke) {
        self.init(stroke, pointCount: stroke.points.count, points: .plain(stroke.points))
    }

    private init(_ stroke: Stroke, pointCount: Int, points: Points) {
        id = stroke.id
        device = stroke.device
        slot = stroke.slot
        trackingID = stroke.trackingID
        flags = stroke.flags
        state = stroke.state
        firstFrame = stroke.firstFrame
        lastFrame = stroke.lastFrame
        self.pointCount = pointCount
        self.points = points
    }

    /// The stroke, its points unpacked.
    public var stroke: Stroke {
        let unpacked: [StrokePoint]
        switch points {
        case .packed(let bytes, let shared):
            unpacked = PointPacking.unpack(bytes, count: pointCount, geometry: shared.geometry)
        case .plain(let plain):
            unpacked = plain
        }
        return Stroke(
            id: id, device: device, slot: slot, trackingID: trackingID, flags: flags, state: state,
            firstFrame: firstFrame, points: unpacked, lastFrame: lastFrame)
    }

    /// Whether its points are packed (false: kept as `StrokePoint`s).
    public var isPacked: Bool {
        switch points {
        case .packed: return true
        case .plain: return false
        }
    }

    /// The bytes its points take (packed or not), without the allocator's overhead.
    public var pointBytes: Int {
        switch points {
        case .packed(let bytes, _): return bytes.count
        case .plain(let plain): return plain.count * MemoryLayout<StrokePoint>.stride
        }
    }
}

/// A device's geometry as its strokes' points are derived with, one instance for all of them.
final class SharedGeometry: Sendable {
    let geometry: DeviceGeometry

    init(_ geometry: DeviceGeometry) { self.geometry = geometry }

    /// Whether `other` derives every point as this geometry does (the same axes and calibration),
    /// so that points packed with one unpack identically with the other.
    func derivesLike(_ other: SharedGeometry) -> Bool {
        let (g, o) = (geometry, other.geometry)
        return g.x == o.x && g.y == o.y && g.xScale.bitPattern == o.xScale.bitPattern
            && g.yScale.bitPattern == o.yScale.bitPattern && g.calibration == o.calibration && g.calibrated == o.calibrated
    }
}
