import InputCore
import StrokeProtocol

// The wire protocol's objects (docs/protocol.md, decoded by `StrokeProtocol`'s message types) as
// a scene: what `strokes render --socket` gets from `devices`, `history`, `snapshot` and the stream.
extension RenderScene {
    /// A protocol object the picture cannot use: names what was wrong.
    public struct DecodingError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}

extension RenderScene.Device {
    /// A device object (`deviceAdded`, the `devices` reply).
    public init(_ d: DeviceObject) {
        self.init(
            id: d.device, name: d.name, kind: d.kind.rawValue,
            x: AbsInfo(minimum: d.x.min, maximum: d.x.max, resolution: d.x.resolution),
            y: AbsInfo(minimum: d.y.min, maximum: d.y.max, resolution: d.y.resolution),
            hasPressure: d.axes.contains("pressure"), hasTouchMajor: d.axes.contains("touchMajor")
        )
    }
}

extension RenderScene.Point {
    /// The point keys of a stroke event or of a stroke object's `points`.
    public init(_ p: PointObject) {
        self.init(
            time: p.time, x: p.x, y: p.y, pressure: p.pressure, touchMajor: p.touchMajor, touchMinor: p.touchMinor,
            orientation: p.orientation
        )
    }
}

extension RenderScene.State {
    /// A stroke object's `state` (and `reason`); a state this client does not know is drawn as in progress.
    init(_ state: StrokeObject.State, reason: StrokeMessage.CancelReason?) {
        switch state {
        case .ended: self = .ended
        case .cancelled: self = .cancelled(reason: reason?.rawValue ?? "unknown")
        case .inProgress, .unknown: self = .inProgress
        }
    }
}

extension RenderScene.Stroke {
    /// A stroke object (`snapshot`, `live`, `history`).
    public init(_ s: StrokeObject) throws {
        guard !s.points.isEmpty else { throw RenderScene.DecodingError("stroke \(s.stroke) has no points: a stroke object needs non-empty 'points'") }
        self.init(
            id: s.stroke, device: s.device, slot: s.slot, state: RenderScene.State(s.state, reason: s.reason),
            flags: s.flags?.map(\.rawValue) ?? [], points: s.points.map(RenderScene.Point.init)
        )
    }
}

extension StrokeCollector {
    /// Applies a stroke event.
    public mutating func apply(_ e: StrokeMessage) {
        let kind: Kind
        switch e.kind {
        case .began: kind = .began(flags: e.flags?.map(\.rawValue) ?? [])
        case .moved: kind = .moved
        case .ended: kind = .ended
        case .cancelled: kind = .cancelled(reason: e.reason?.rawValue ?? "unknown")
        }
        apply(kind, stroke: e.stroke, device: e.device, slot: e.slot, point: RenderScene.Point(e.point))
    }
}
