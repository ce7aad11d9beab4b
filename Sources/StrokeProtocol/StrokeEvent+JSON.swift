import InputCore
import MultitouchDecoder
import StrokeTracker

extension StrokeEvent {
    /// The event as one line of the wire protocol (docs/protocol.md, "Stroke events"), without the
    /// trailing newline. `extra` fields (such as the daemon's `seq`) come right after `type`.
    ///
    /// ```
    /// {"type":"began","stroke":1,"device":1,"frame":1,"slot":0,"trackingId":21,"time":1,"x":415,"y":107,"nx":0.519399,"ny":0.223382}
    /// ```
    public func json(geometry: DeviceGeometry, extra: (inout JSONWriter) -> Void = { _ in }) -> String {
        var w = JSONWriter()
        w.field("type", kind.name)
        extra(&w)
        w.field("stroke", stroke.rawValue)
        w.field("device", device.rawValue)
        w.field("frame", frame)
        w.field("slot", slot)
        w.field("trackingId", trackingID)
        StrokeEvent.writePoint(point, geometry: geometry, into: &w)
        if kind == .began {
            let names = StrokeEvent.flagNames(flags, geometry: geometry)
            if !names.isEmpty { w.field("flags", strings: names) }
        }
        if case .cancelled(let reason) = kind { w.field("reason", reason.rawValue) }
        return w.finish()
    }

    /// The point's fields, from `time` on, in protocol order: `time`, `x`, `y`, `nx`, `ny`,
    /// `mmX`/`mmY` when the resolution is known, then the optional axes the device has.
    public static func writePoint(_ point: StrokePoint, geometry: DeviceGeometry, into w: inout JSONWriter) {
        w.field("time", point.time.microseconds)
        w.field("x", point.x)
        w.field("y", point.y)
        w.field("nx", point.nx, decimals: 6)
        w.field("ny", point.ny, decimals: 6)
        if let mmX = point.mmX, let mmY = point.mmY {
            w.field("mmX", mmX, decimals: 2)
            w.field("mmY", mmY, decimals: 2)
        }
        let axes = geometry.axes
        if axes.contains(.pressure) { w.field("pressure", point.pressure) }
        if axes.contains(.touchMajor) { w.field("touchMajor", point.touchMajor) }
        if axes.contains(.touchMinor) { w.field("touchMinor", point.touchMinor) }
        if axes.contains(.orientation) { w.field("orientation", point.orientation) }
        if axes.contains(.toolType) { w.field("toolType", StrokeEvent.toolName(point.toolType)) }
    }

    /// The `flags` of a stroke, as on `began`.
    public static func flagNames(_ flags: ContactFlags, geometry: DeviceGeometry) -> [String] {
        var names: [String] = []
        if flags.contains(.adopted) { names.append("adopted") }
        if flags.contains(.semiMT) { names.append("semiMT") }
        if flags.contains(.jump) { names.append("jump") }
        if !geometry.hasResolution { names.append("noResolution") }
        return names
    }

    /// `MT_TOOL_*` as a name; unknown values as their number in decimal.
    public static func toolName(_ value: Int32) -> String {
        switch value {
        case ToolType.finger: return "finger"
        case ToolType.pen: return "pen"
        case ToolType.palm: return "palm"
        case ToolType.dial: return "dial"
        default: return String(value)
        }
    }
}
