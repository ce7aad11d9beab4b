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
        _ = write(geometry: geometry, into: &w, extra: extra)
        return w.finish()
    }

    /// The event as the daemon streams it, with `seq` (none for hover), into a writer the caller
    /// reuses: `w` is reset, then holds the closed object (no newline). Returns the byte offset
    /// where a slow client's `,"merged":n` goes, so a merged copy is built from the two halves of
    /// the line (docs/protocol.md, "Slow clients").
    /// Allocates nothing once `w` has grown to the longest line.
    public func encode(geometry: DeviceGeometry, seq: UInt64?, into w: inout JSONWriter) -> Int {
        w.reset()
        let offset = write(geometry: geometry, into: &w) { w in
            if let seq { w.field("seq", seq) }
        }
        w.close()
        return offset
    }

    /// Writes the event's fields; returns the UTF-8 offset where `,"merged":n` belongs: after
    /// `type` and `extra`, and after a hover's `phase`.
    private func write(geometry: DeviceGeometry, into w: inout JSONWriter, extra: (inout JSONWriter) -> Void) -> Int {
        w.field("type", name: kind.wireName)
        extra(&w)
        let mergedOffset: Int
        if case .hover(let phase) = kind {
            w.field("phase", name: phase.wireName)
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
        if kind == .began { StrokeEvent.writeFlags(flags, geometry: geometry, into: &w) }
        if case .cancelled(let reason) = kind { w.field("reason", name: reason.wireName) }
        return mergedOffset
    }

    /// `flags` (as on `began`), when the stroke has any; the names as `flagNames` lists them.
    static func writeFlags(_ flags: ContactFlags, geometry: DeviceGeometry, into w: inout JSONWriter) {
        let noResolution = !geometry.hasResolution
        guard flags.contains(.adopted) || flags.contains(.semiMT) || flags.contains(.jump) || noResolution else { return }
        var count = 0
        w.beginArray("flags")
        if flags.contains(.adopted) { w.element("adopted", count: &count) }
        if flags.contains(.semiMT) { w.element("semiMT", count: &count) }
        if flags.contains(.jump) { w.element("jump", count: &count) }
        if noResolution { w.element("noResolution", count: &count) }
        w.endArray()
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
        if axes.contains(.toolType) {
            if let name = StrokeEvent.toolWireName(point.toolType) {
                w.field("toolType", name: name)
            } else {
                w.field("toolType", String(point.toolType))
            }
        }
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
        if axes.contains(.buttons) {
            // As `PenButtons.names` lists them, without building the list.
            var count = 0
            w.beginArray("buttons")
            if point.buttons.contains(.stylus) { w.element("stylus", count: &count) }
            if point.buttons.contains(.stylus2) { w.element("stylus2", count: &count) }
            if point.buttons.contains(.stylus3) { w.element("stylus3", count: &count) }
            w.endArray()
        }
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
        toolWireName(value).map { "\($0)" } ?? String(value)
    }

    /// `MT_TOOL_*` as a name; nil for values without one.
    static func toolWireName(_ value: Int32) -> StaticString? {
        switch value {
        case ToolType.finger: return "finger"
        case ToolType.pen: return "pen"
        case ToolType.palm: return "palm"
        case ToolType.dial: return "dial"
        case ToolType.eraser: return "eraser"
        case ToolType.brush: return "brush"
        case ToolType.pencil: return "pencil"
        case ToolType.airbrush: return "airbrush"
        default: return nil
        }
    }
}

// The wire's names as static bytes: the writer copies them without looking at a `String`.
extension StrokeEvent.Kind {
    var wireName: StaticString {
        switch self {
        case .began: return "began"
        case .moved: return "moved"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .hover: return "hover"
        }
    }
}

extension HoverPhase {
    var wireName: StaticString {
        switch self {
        case .proximityIn: return "proximityIn"
        case .motion: return "motion"
        case .proximityOut: return "proximityOut"
        }
    }
}

extension CancelReason {
    var wireName: StaticString {
        switch self {
        case .palm: return "palm"
        case .eventsDropped: return "eventsDropped"
        case .resync: return "resync"
        case .deviceRemoved: return "deviceRemoved"
        case .shutdown: return "shutdown"
        case .replayRestarted: return "replayRestarted"
        case .pen: return "pen"
        case .notTouching: return "notTouching"
        }
    }
}
