import Foundation
import InputCore

// Reading the wire protocol's objects (docs/protocol.md) into a scene: what
// `strokes render --socket` gets from `devices`, `history`, `snapshot` and the stream.
extension RenderScene {
    /// A protocol object the picture cannot use: names what was wrong.
    public struct DecodingError: Error, CustomStringConvertible {
        public var description: String
        init(_ what: String, in object: [String: Any]) {
            let text = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
                .map { String(decoding: $0, as: UTF8.self) } ?? "\(object)"
            description = "\(what) in \(text.count > 200 ? text.prefix(200) + "…" : text)"
        }
    }

    static func int(_ object: [String: Any], _ key: String) -> Int64? {
        guard let n = object[key] as? NSNumber else { return nil }
        return n.int64Value
    }

    static func int32(_ object: [String: Any], _ key: String) -> Int32? {
        int(object, key).flatMap { Int32(exactly: $0) }
    }
}

extension RenderScene.Device {
    /// A device object (`deviceAdded`, the `devices` reply).
    public init(json o: [String: Any]) throws {
        func axis(_ key: String) throws -> AbsInfo {
            guard let a = o[key] as? [String: Any], let min = RenderScene.int32(a, "min"), let max = RenderScene.int32(a, "max") else {
                throw RenderScene.DecodingError("no '\(key)' axis", in: o)
            }
            return AbsInfo(minimum: min, maximum: max, resolution: RenderScene.int32(a, "resolution") ?? 0)
        }
        guard let id = RenderScene.int(o, "device").flatMap({ UInt32(exactly: $0) }) else {
            throw RenderScene.DecodingError("no 'device' id", in: o)
        }
        let axes = o["axes"] as? [String] ?? []
        self.init(
            id: id, name: o["name"] as? String ?? "device \(id)", kind: o["kind"] as? String ?? "other",
            x: try axis("x"), y: try axis("y"), hasPressure: axes.contains("pressure"), hasTouchMajor: axes.contains("touchMajor")
        )
    }
}

extension RenderScene.Point {
    /// The point keys of a stroke event or of a stroke object's `points`.
    public init(json o: [String: Any]) throws {
        guard let time = RenderScene.int(o, "time"), let x = RenderScene.int32(o, "x"), let y = RenderScene.int32(o, "y") else {
            throw RenderScene.DecodingError("a point needs integer 'time', 'x' and 'y'", in: o)
        }
        self.init(
            time: time, x: x, y: y, pressure: RenderScene.int32(o, "pressure"), touchMajor: RenderScene.int32(o, "touchMajor"),
            touchMinor: RenderScene.int32(o, "touchMinor"), orientation: RenderScene.int32(o, "orientation")
        )
    }
}

extension RenderScene.Stroke {
    /// A stroke object (`snapshot`, `live`, `history`).
    public init(json o: [String: Any]) throws {
        guard let id = RenderScene.int(o, "stroke").flatMap({ UInt64(exactly: $0) }),
            let device = RenderScene.int(o, "device").flatMap({ UInt32(exactly: $0) }),
            let pointObjects = o["points"] as? [[String: Any]], !pointObjects.isEmpty
        else { throw RenderScene.DecodingError("a stroke object needs 'stroke', 'device' and non-empty 'points'", in: o) }
        let state: RenderScene.State
        switch o["state"] as? String {
        case "ended": state = .ended
        case "cancelled": state = .cancelled(reason: o["reason"] as? String ?? "unknown")
        default: state = .inProgress
        }
        self.init(
            id: id, device: device, slot: RenderScene.int32(o, "slot") ?? 0, state: state, flags: o["flags"] as? [String] ?? [],
            points: try pointObjects.map(RenderScene.Point.init(json:))
        )
    }
}

extension StrokeCollector {
    /// Applies a stream message; returns false for messages that are not stroke events (which
    /// are left alone).
    @discardableResult
    public mutating func apply(json o: [String: Any]) throws -> Bool {
        let kind: Kind
        switch o["type"] as? String {
        case "began": kind = .began(flags: o["flags"] as? [String] ?? [])
        case "moved": kind = .moved
        case "ended": kind = .ended
        case "cancelled": kind = .cancelled(reason: o["reason"] as? String ?? "unknown")
        default: return false
        }
        guard let id = RenderScene.int(o, "stroke").flatMap({ UInt64(exactly: $0) }),
            let device = RenderScene.int(o, "device").flatMap({ UInt32(exactly: $0) })
        else { throw RenderScene.DecodingError("a stroke event needs 'stroke' and 'device'", in: o) }
        apply(kind, stroke: id, device: device, slot: RenderScene.int32(o, "slot") ?? 0, point: try RenderScene.Point(json: o))
        return true
    }
}
