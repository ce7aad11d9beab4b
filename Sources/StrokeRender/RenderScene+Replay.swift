import InputCore
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker

extension RenderScene {
    /// Runs `recording` through the replay pipeline (the daemon's decoder and tracker) and keeps
    /// every stroke: ended, cancelled, and still in progress at the end of the recording.
    ///
    /// - Throws: `DecoderError` when a device of the recording cannot be decoded.
    public init(recording: Recording, title: String) throws {
        try self.init(stream: RecordingStream(memory: recording, file: title), title: title)
    }

    /// Runs `stream` through the replay pipeline as it is read: the scene keeps the strokes'
    /// points, never the raw events.
    ///
    /// - Throws: `DecoderError` when a device of the recording cannot be decoded, `RecordingError`
    ///   at a malformed event line.
    public init(stream: RecordingStream, title: String) throws {
        var replayer = try Replayer(stream: stream, historyLimit: 0)
        var origin: Int64?
        var collector = StrokeCollector()
        var hover: [HoverTrace] = []
        var openHover: [StrokeID: Int] = [:]
        /// Tools whose hover a touch interrupted: their next motion starts a new trace.
        var touched: Set<StrokeID> = []
        var events: [StrokeEvent] = []
        let geometries = Dictionary(uniqueKeysWithValues: replayer.devices.map { ($0.id, $0.geometry) })
        while let step = try replayer.next(into: &events) {
            // The earliest frame: a recording's clock can step back past its first.
            origin = min(origin ?? .max, step.time.microseconds)
            for e in events {
                let geometry = geometries[e.device]!
                if case .hover(let phase) = e.kind {
                    let point = RenderScene.Point(e.point, axes: geometry.axes)
                    switch phase {
                    case .proximityIn:
                        openHover[e.stroke] = hover.count
                        hover.append(HoverTrace(device: e.device.rawValue, points: [point]))
                    case .motion:
                        if let i = openHover[e.stroke] {
                            hover[i].points.append(point)
                        } else if touched.remove(e.stroke) != nil {
                            openHover[e.stroke] = hover.count
                            hover.append(HoverTrace(device: e.device.rawValue, points: [point]))
                        }
                    case .proximityOut:
                        touched.remove(e.stroke)
                        if let i = openHover.removeValue(forKey: e.stroke) { hover[i].points.append(point) }
                    }
                    continue
                }
                // A tool that touches stops hovering until it lifts: its hover goes on as a new
                // trace, not a line from where it touched down to where it lifted.
                if case .began = e.kind {
                    let tool = StrokeID.hover(device: e.device, slot: e.slot)
                    if openHover.removeValue(forKey: tool) != nil { touched.insert(tool) }
                }
                guard let kind = RenderScene.collectorKind(e, geometry: geometry) else { continue }
                collector.apply(
                    kind, stroke: e.stroke.rawValue, device: e.device.rawValue,
                    slot: e.slot, point: RenderScene.Point(e.point, axes: geometry.axes)
                )
            }
            events.removeAll(keepingCapacity: true)
        }
        let devices = replayer.devices.map { d in
            RenderScene.Device(
                id: d.id.rawValue, name: d.description.name, kind: d.description.kind.rawValue,
                x: d.geometry.x, y: d.geometry.y, hasPressure: d.geometry.axes.contains(.pressure),
                hasTouchMajor: d.geometry.axes.contains(.touchMajor)
            )
        }
        self.init(title: title, devices: devices, strokes: collector.strokes, origin: origin)
        self.hover = hover
    }

    /// The stroke event for the collector; nil for hover, which is not drawn.
    static func collectorKind(_ e: StrokeEvent, geometry: DeviceGeometry) -> StrokeCollector.Kind? {
        switch e.kind {
        case .began:
            var flags = StrokeEvent.flagNames(e.flags, geometry: geometry)
            // The picture tells an eraser's strokes from a pen's (`SVGRenderer+Panel.swift`).
            if geometry.isPen && e.point.toolType == ToolType.eraser { flags.append("eraser") }
            return .began(flags: flags)
        case .moved: return .moved
        case .ended: return .ended
        case .cancelled(let reason): return .cancelled(reason: reason.rawValue)
        case .hover: return nil
        }
    }
}

extension RenderScene.Point {
    /// The tracker's point, keeping the optional axes the device has and has reported.
    init(_ p: StrokePoint, axes: DeviceGeometry.Axes) {
        self.init(
            time: p.time.microseconds, x: p.x, y: p.y,
            pressure: axes.contains(.pressure) && p.known.contains(.pressure) ? p.pressure : nil,
            touchMajor: axes.contains(.touchMajor) && p.known.contains(.touchMajor) ? p.touchMajor : nil,
            touchMinor: axes.contains(.touchMinor) && p.known.contains(.touchMinor) ? p.touchMinor : nil,
            orientation: axes.contains(.orientation) && p.known.contains(.orientation) ? p.orientation : nil
        )
    }
}
