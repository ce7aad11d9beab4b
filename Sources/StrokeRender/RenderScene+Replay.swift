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
        var events: [StrokeEvent] = []
        let geometries = Dictionary(uniqueKeysWithValues: replayer.devices.map { ($0.id, $0.geometry) })
        while let step = try replayer.next(into: &events) {
            if origin == nil { origin = step.time.microseconds }
            for e in events {
                let geometry = geometries[e.device]!
                collector.apply(
                    RenderScene.collectorKind(e, geometry: geometry), stroke: e.stroke.rawValue, device: e.device.rawValue,
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
    }

    static func collectorKind(_ e: StrokeEvent, geometry: DeviceGeometry) -> StrokeCollector.Kind {
        switch e.kind {
        case .began: return .began(flags: StrokeEvent.flagNames(e.flags, geometry: geometry))
        case .moved: return .moved
        case .ended: return .ended
        case .cancelled(let reason): return .cancelled(reason: reason.rawValue)
        }
    }
}

extension RenderScene.Point {
    /// The tracker's point, keeping the optional axes the device has.
    init(_ p: StrokePoint, axes: DeviceGeometry.Axes) {
        self.init(
            time: p.time.microseconds, x: p.x, y: p.y,
            pressure: axes.contains(.pressure) ? p.pressure : nil,
            touchMajor: axes.contains(.touchMajor) ? p.touchMajor : nil,
            touchMinor: axes.contains(.touchMinor) ? p.touchMinor : nil,
            orientation: axes.contains(.orientation) ? p.orientation : nil
        )
    }
}
