import StrokeProtocol

/// The gesture's values as environment variables for the command it runs
/// (docs/gestures.md, "Acting on gestures", lists them). Values missing from the gesture are left
/// out; numbers are plain decimals (no exponent), as a shell's arithmetic or `bc` reads them.
public enum GestureEnvironment {
    /// Every variable this client sets starts with it; inherited ones are removed, so that a
    /// value left out is really absent.
    public static let prefix = "STROKES_GESTURE_"

    /// The variables for `gesture`, in a fixed order (names without duplicates).
    public static func variables(for gesture: GestureMessage, deviceName: String?, rule: String) -> [(String, String)] {
        var v: [(String, String)] = []
        func add(_ name: String, _ value: String?) {
            if let value { v.append((prefix + name, value)) }
        }
        func add(_ name: String, _ value: Double?) {
            add(name, value.map { JSONWriter.fixed($0, decimals: 6) })
        }
        add("RULE", rule)
        add("KIND", gesture.kind.rawValue)
        add("PHASE", gesture.phase.rawValue)
        add("ID", String(gesture.gesture))
        add("FINGERS", String(gesture.fingers))
        add("DEVICE", String(gesture.device))
        add("DEVICE_NAME", deviceName)
        add("TIME", String(gesture.time))
        add("DURATION", String(gesture.duration))
        add("STROKES", gesture.strokes.map(String.init).joined(separator: " "))
        add("X", gesture.x)
        add("Y", gesture.y)
        add("NX", gesture.nx)
        add("NY", gesture.ny)
        add("MM_X", gesture.mmX)
        add("MM_Y", gesture.mmY)
        add("DNX", gesture.dnx)
        add("DNY", gesture.dny)
        add("DMM_X", gesture.dmmX)
        add("DMM_Y", gesture.dmmY)
        add("DIRECTION", gesture.direction?.rawValue)
        add("VELOCITY", gesture.velocity)
        add("EDGE", gesture.edge?.rawValue)
        add("SCALE", gesture.scale)
        add("ANGLE", gesture.angle)
        return v
    }
}
