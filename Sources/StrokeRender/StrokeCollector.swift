/// Folds a stream of stroke lifecycle events back into strokes, the way a client of the protocol
/// does: `began` opens a stroke, `moved` appends its point, `ended` appends the lift sample when
/// it differs from the last point (the tracker's rule, so polylines match the daemon's history),
/// `cancelled` marks it. Unlike the tracker, cancelled strokes are kept: a picture shows them.
public struct StrokeCollector: Sendable {
    public enum Kind: Hashable, Sendable {
        case began(flags: [String])
        case moved
        case ended
        case cancelled(reason: String)
    }

    public private(set) var strokes: [RenderScene.Stroke] = []
    private var index: [UInt64: Int] = [:]

    public init() {}

    /// Applies one event. Events for a stroke the collector has not seen begin (a client joining
    /// mid-stroke) start it from that point; events after its end are ignored.
    public mutating func apply(_ kind: Kind, stroke id: UInt64, device: UInt32, slot: Int32, point: RenderScene.Point) {
        guard let i = index[id] else {
            var flags: [String] = []
            if case .began(let f) = kind { flags = f }
            var stroke = RenderScene.Stroke(id: id, device: device, slot: slot, state: .inProgress, flags: flags, points: [point])
            switch kind {
            case .began, .moved: break
            case .ended: stroke.state = .ended
            case .cancelled(let reason): stroke.state = .cancelled(reason: reason)
            }
            if stroke.state != .inProgress { stroke.endTime = point.time }
            if case .began = kind {} else { stroke.clippedStart = true }
            index[id] = strokes.count
            strokes.append(stroke)
            return
        }
        guard strokes[i].state == .inProgress else { return }
        switch kind {
        case .began:
            return  // a repeated began: the protocol promises none
        case .moved:
            strokes[i].points.append(point)
        case .ended:
            if !point.samePosition(as: strokes[i].points[strokes[i].points.count - 1]) { strokes[i].points.append(point) }
            strokes[i].state = .ended
            strokes[i].endTime = point.time
        case .cancelled(let reason):
            strokes[i].state = .cancelled(reason: reason)
            strokes[i].endTime = point.time
        }
    }

    /// Adds a whole stroke (from a snapshot or a history reply). A stroke already known is
    /// replaced when the new one is further along: an ended stroke from history over the same
    /// stroke seen in progress.
    public mutating func insert(_ stroke: RenderScene.Stroke) {
        guard let i = index[stroke.id] else {
            index[stroke.id] = strokes.count
            strokes.append(stroke)
            return
        }
        if strokes[i].state == .inProgress && (stroke.state != .inProgress || stroke.points.count > strokes[i].points.count) {
            strokes[i] = stroke
        }
    }
}
