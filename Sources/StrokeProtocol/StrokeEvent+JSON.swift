import InputCore
import MultitouchDecoder
import StrokeTracker

/// A stream line, encoded once for every client, and the UTF-8 offset in it where a slow client's
/// `,"merged":n` goes (right after `seq` on a `moved`, after `phase` on a hover `motion`).
public struct EncodedEvent: Sendable {
    public var line: String
    public var mergedOffset: Int
}

extension StrokeEvent {
    /// The event as one line of the wire protocol (docs/protocol.md, "Stroke events"), without the
    /// trailing newline. `extra` fields (such as the daemon's `seq`) come right after `type`.
    ///
    /// ```
    /// {"type":"began","stroke":1,"device":1,"frame":1,"slot":0,"trackingId":21,"time":1,"x":415,"y":107,"nx":0.519399,"ny":0.223382}
    /// ```
    public func json(geometry: DeviceGeometry, extra: (inout JSONWriter) -> Void = { _ in }) -> String {
        var w = JSONWriter()
        _ = write(geometry: geometry, into: &w, extra: extra)
        return w.finish()
    }

    /// The event as the daemon streams it: with `seq` (none for hover), and where a slow client's
    /// `"merged":n` goes, so a merged copy is built from the two halves of the line
    /// (docs/protocol.md, "Slow clients").
    public func encoded(geometry: DeviceGeometry, seq: UInt64?) -> EncodedEvent {
        var w = JSONWriter()
        let offset = write(geometry: geometry, into: &w) { w in
            if let seq { w.field("seq", seq) }
        }
        return EncodedEvent(line: w.finish(), mergedOffset: offset)
    }

    /// Writes the event's fields; returns the UTF-8 offset where `,"merged":n` belongs: after
    /// `type` and `extra`, and after a hover's `phase`.
    private func write(geometry: DeviceGeometry, into w: inout JSONWriter, extra: (inout JSONWriter) -> Void) -> Int {
        w.field("type", kind.name)
        extra(&w)
        let mergedOffset: Int
        if case .hover(let phase) = kind {
            w.field("phase", phase.rawValue)
            mergedOffset = w.byteCount
        } else {
            mergedOffset = w.byteCount
            w.field("stroke", stroke.rawValue)
        }
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
        return mergedOffset
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
        let known = point.known
        if axes.contains(.pressure) && known.contains(.pressure) {
            w.field("pressure", point.pressure)
            if geometry.isPen, let p = geometry.normalizedPressure(point.pressure) {
                w.field("normalizedPressure", p, decimals: 4)
            }
        }
        if axes.contains(.touchMajor) && known.contains(.touchMajor) { w.field("touchMajor", point.touchMajor) }
        if axes.contains(.touchMinor) && known.contains(.touchMinor) { w.field("touchMinor", point.touchMinor) }
        if axes.contains(.orientation) && known.contains(.orientation) { w.field("orientation", point.orientation) }
        // A slot's tool type starts as MT_TOOL_FINGER in the kernel and is sent only when it
        // changes, so a finger is known without an event; a pen's tool is set by the decoder.
        if axes.contains(.toolType) { w.field("toolType", StrokeEvent.toolName(point.toolType)) }
        if axes.contains(.distance) && known.contains(.distance) { w.field("distance", point.distance) }
        guard geometry.isPen else { return }
        if axes.contains(.tiltX) && known.contains(.tiltX) {
            w.field("tiltX", point.tiltX)
            if let d = geometry.tiltDegrees(x: point.tiltX) { w.field("tiltXDegrees", d, decimals: 2) }
        }
        if axes.contains(.tiltY) && known.contains(.tiltY) {
            w.field("tiltY", point.tiltY)
            if let d = geometry.tiltDegrees(y: point.tiltY) { w.field("tiltYDegrees", d, decimals: 2) }
        }
        if axes.contains(.rotation) && known.contains(.rotation) { w.field("rotation", point.rotation) }
        if axes.contains(.wheel) && known.contains(.wheel) { w.field("wheel", point.wheel) }
        if axes.contains(.buttons) { w.field("buttons", strings: point.buttons.names) }
        if axes.contains(.toolID) && known.contains(.toolID) { w.field("toolId", point.toolID) }
        if axes.contains(.serial) && known.contains(.serial) { w.field("serial", point.serial) }
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
        case ToolType.eraser: return "eraser"
        case ToolType.brush: return "brush"
        case ToolType.pencil: return "pencil"
        case ToolType.airbrush: return "airbrush"
        default: return String(value)
        }
    }
}
