import InputCore
import StrokeProtocol
import MultitouchDecoder
import StrokeTracker

/// A device as the protocol describes it (docs/protocol.md, "Device objects").
enum DeviceJSON {
    static func write(_ info: DeviceInfo, into w: inout JSONWriter) {
        let d = info.description
        w.field("device", info.id.rawValue)
        w.field("name", d.name)
        w.field("path", info.path)
        w.field("kind", d.kind.rawValue)
        w.field("slots", d.slotCount ?? 1)
        w.field("bustype", d.id.bustype)
        w.field("vendor", d.id.vendor)
        w.field("product", d.id.product)
        w.raw("x", axis(info.geometry.x))
        w.raw("y", axis(info.geometry.y))
        var axes: [String] = []
        let a = info.geometry.axes
        if a.contains(.pressure) { axes.append("pressure") }
        if a.contains(.touchMajor) { axes.append("touchMajor") }
        if a.contains(.touchMinor) { axes.append("touchMinor") }
        if a.contains(.orientation) { axes.append("orientation") }
        if a.contains(.toolType) { axes.append("toolType") }
        axes += DeviceJSON.penAxisNames(a)
        w.field("axes", strings: axes)
        if info.geometry.isPen { w.field("tools", strings: d.penTools.map(StrokeEvent.toolName)) }
        w.field("semiMT", d.isSemiMT)
        if info.geometry.calibrated {
            w.raw("calibration", "[" + info.geometry.calibration.matrix.map { JSONWriter.fixed($0, decimals: 6) }.joined(separator: ",") + "]")
        }
    }

    /// The pen axes of `axes`, in protocol order (docs/protocol.md, "Device objects").
    static func penAxisNames(_ a: DeviceGeometry.Axes) -> [String] {
        var names: [String] = []
        if a.contains(.distance) { names.append("distance") }
        if a.contains(.tiltX) { names.append("tiltX") }
        if a.contains(.tiltY) { names.append("tiltY") }
        if a.contains(.rotation) { names.append("rotation") }
        if a.contains(.wheel) { names.append("wheel") }
        if a.contains(.buttons) { names.append("buttons") }
        if a.contains(.toolID) { names.append("toolId") }
        if a.contains(.serial) { names.append("serial") }
        return names
    }

    static func object(_ info: DeviceInfo) -> String {
        var w = JSONWriter()
        write(info, into: &w)
        return w.finish()
    }

    private static func axis(_ a: AbsInfo) -> String {
        var w = JSONWriter()
        w.field("min", a.minimum)
        w.field("max", a.maximum)
        w.field("resolution", a.resolution)
        return w.finish()
    }
}
