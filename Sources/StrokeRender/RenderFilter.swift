/// Which part of a scene to draw (`strokes render --from --to --stroke --device`).
public struct RenderFilter: Hashable, Sendable {
    /// Seconds from the scene's `origin`, inclusive; nil: unbounded.
    public var from: Double?
    public var to: Double?
    /// Only these strokes (empty: all).
    public var strokes: Set<UInt64>
    /// Only these devices (empty: all).
    public var devices: Set<UInt32>

    public init(from: Double? = nil, to: Double? = nil, strokes: Set<UInt64> = [], devices: Set<UInt32> = []) {
        self.from = from
        self.to = to
        self.strokes = strokes
        self.devices = devices
    }
}

extension RenderScene {
    /// The scene cut down to `filter`. A time window keeps each stroke's points inside it (a stroke
    /// with none is left out; one cut at its start is marked `clippedStart`, so it gets no began
    /// dot). Asking for strokes by id also leaves out the devices that have none of them.
    /// The time `seconds` after `origin`, in `Double` and clamped to what a `Timestamp` holds (a
    /// crafted recording's origin may be near its limits; NaN: the origin).
    func time(at seconds: Double) -> Int64 {
        guard !seconds.isNaN else { return origin }
        let t = Double(origin) + (seconds * 1e6).rounded()
        if t >= 9.2e18 { return .max }
        if t <= -9.2e18 { return .min }
        return Int64(t)
    }

    public func filtered(_ filter: RenderFilter) -> RenderScene {
        var scene = self
        if !filter.devices.isEmpty {
            scene.devices.removeAll { !filter.devices.contains($0.id) }
            scene.strokes.removeAll { !filter.devices.contains($0.device) }
            scene.hover.removeAll { !filter.devices.contains($0.device) }
        }
        if !filter.strokes.isEmpty {
            scene.strokes.removeAll { !filter.strokes.contains($0.id) }
            let kept = Set(scene.strokes.map(\.device))
            scene.devices.removeAll { !kept.contains($0.id) }
        }
        if filter.from != nil || filter.to != nil {
            let lower = filter.from.map { time(at: $0) } ?? .min
            let upper = filter.to.map { time(at: $0) } ?? .max
            let window = lower...upper
            scene.strokes = scene.strokes.compactMap { stroke in
                var s = stroke
                s.points = stroke.points.filter { window.contains($0.time) }
                guard let first = s.points.first else { return nil }
                if first.time != stroke.points[0].time { s.clippedStart = true }
                if let end = s.endTime, end > upper { s.endTime = nil }
                return s
            }
            scene.hover = scene.hover.compactMap { trace in
                var t = trace
                t.points = trace.points.filter { window.contains($0.time) }
                return t.points.isEmpty ? nil : t
            }
        }
        return scene
    }
}
