import InputCore
import StrokeProtocol
import StrokeTracker

/// The tracker's stroke (inside `RenderScene`, `Stroke` is the picture's).
public typealias TrackedStroke = Stroke

extension RenderScene {
    /// A device as a running daemon knows it: what `strokes render --socket` reads from its
    /// device objects.
    public struct TrackedDevice: Sendable {
        public var id: DeviceID
        public var name: String
        public var kind: String
        public var geometry: DeviceGeometry

        public init(id: DeviceID, name: String, kind: String, geometry: DeviceGeometry) {
            self.id = id
            self.name = name
            self.kind = kind
            self.geometry = geometry
        }
    }

    /// The tracker's strokes (a daemon's history and those in progress) on its devices: the
    /// picture `strokes render --socket` draws from the same daemon's `devices`, `history` and
    /// snapshot, built in the daemon without the round trip through JSON (`GET /render.svg`).
    /// Strokes of devices not in `devices` are left out.
    public init(title: String, devices: [TrackedDevice], strokes: [TrackedStroke]) {
        var geometries: [DeviceID: DeviceGeometry] = [:]
        for d in devices { geometries[d.id] = d.geometry }
        let sceneDevices = devices.map { d in
            Device(
                id: d.id.rawValue, name: d.name, kind: d.kind, x: d.geometry.x, y: d.geometry.y,
                hasPressure: d.geometry.axes.contains(.pressure), hasTouchMajor: d.geometry.axes.contains(.touchMajor))
        }
        let sceneStrokes: [Stroke] = strokes.compactMap { s in
            guard let geometry = geometries[s.device], !s.points.isEmpty else { return nil }
            let state: State
            switch s.state {
            case .inProgress: state = .inProgress
            case .ended: state = .ended
            case .cancelled(let reason): state = .cancelled(reason: reason.rawValue)
            }
            return Stroke(
                id: s.id.rawValue, device: s.device.rawValue, slot: s.slot, state: state,
                flags: StrokeEvent.flagNames(s.flags, geometry: geometry),
                points: s.points.map { Point($0, axes: geometry.axes) })
        }
        self.init(title: title, devices: sceneDevices, strokes: sceneStrokes)
    }
}
