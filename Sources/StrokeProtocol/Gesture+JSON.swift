import GestureRecognizer
import StrokeTracker

extension Gesture {
    /// The step as one line of the wire protocol (docs/protocol.md, "Gesture events"), keys in
    /// `GestureMessage`'s order, without the trailing newline:
    ///
    /// ```
    /// {"type":"gesture","gesture":3,"kind":"swipe","phase":"end","device":1,"time":2650000,"fingers":4,"strokes":[5,6,7,8],"x":2040.5,"y":1820.25,"nx":0.498169,"ny":0.444397,"mmX":120.4,"mmY":80.1,"duration":650000,"dnx":0.01,"dny":0.3,"dmmX":2.1,"dmmY":60.3,"direction":"down","velocity":120.5,"normalizedVelocity":0.5812}
    /// ```
    public func json() -> String {
        var w = JSONWriter()
        write(into: &w)
        return w.finish()
    }

    /// The line into a writer the caller reuses: `w` is reset, then holds the closed object.
    public func encode(into w: inout JSONWriter) {
        w.reset()
        write(into: &w)
        w.close()
    }

    private func write(into w: inout JSONWriter) {
        w.field("type", name: "gesture")
        w.field("gesture", id)
        w.field("kind", name: kind.wireName)
        w.field("phase", name: phase.wireName)
        w.field("device", device.rawValue)
        w.field("time", time.microseconds)
        w.field("fingers", fingers)
        var count = 0
        w.beginArray("strokes")
        for s in strokes { w.element(integer: s.rawValue, count: &count) }
        w.endArray()
        w.field("x", centroid.x, decimals: 2)
        w.field("y", centroid.y, decimals: 2)
        w.field("nx", centroid.nx, decimals: 6)
        w.field("ny", centroid.ny, decimals: 6)
        if let x = centroid.mmX, let y = centroid.mmY {
            w.field("mmX", x, decimals: 2)
            w.field("mmY", y, decimals: 2)
        }
        w.field("duration", duration)
        if let d = displacement {
            w.field("dnx", d.dnx, decimals: 6)
            w.field("dny", d.dny, decimals: 6)
            if let x = d.dmmX, let y = d.dmmY {
                w.field("dmmX", x, decimals: 2)
                w.field("dmmY", y, decimals: 2)
            }
        }
        if let direction { w.field("direction", name: direction.wireName) }
        if let velocity { w.field("velocity", velocity, decimals: 2) }
        if let normalizedVelocity { w.field("normalizedVelocity", normalizedVelocity, decimals: 4) }
        if let edge { w.field("edge", name: edge.wireName) }
        if let scale { w.field("scale", scale, decimals: 4) }
        if let angle { w.field("angle", angle, decimals: 2) }
    }
}

// The wire's names (`GestureMessage`'s raw values) as static bytes.
extension Gesture.Kind {
    var wireName: StaticString {
        switch self {
        case .tap: "tap"
        case .doubleTap: "doubleTap"
        case .hold: "hold"
        case .swipe: "swipe"
        case .edgeSwipe: "edgeSwipe"
        case .pinch: "pinch"
        case .rotate: "rotate"
        }
    }
}

extension Gesture.Phase {
    var wireName: StaticString {
        switch self {
        case .begin: "begin"
        case .update: "update"
        case .end: "end"
        case .cancel: "cancel"
        }
    }
}

extension Gesture.Direction {
    var wireName: StaticString {
        switch self {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .upLeft: "upLeft"
        case .upRight: "upRight"
        case .downLeft: "downLeft"
        case .downRight: "downRight"
        }
    }
}

extension Gesture.Edge {
    var wireName: StaticString {
        switch self {
        case .top: "top"
        case .bottom: "bottom"
        case .left: "left"
        case .right: "right"
        }
    }
}
