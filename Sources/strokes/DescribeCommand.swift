import ArgumentParser
import Evdev
import InputCore
import StrokeTracker
import StrokeProtocol
import StrokeRecording

struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print the device description of a recording: name, ids, properties, axes, slots, kind."
    )

    @Argument(help: "Recording files ('-' for standard input).")
    var files: [String]

    func run() throws {
        var out = OutputBuffer()
        defer { out.flush() }
        for file in files {
            let recording = try loadRecording(file, flushing: &out)
            out.line("file: \(terminalSafe(file))")
            out.line("format: \(recording.format)")
            for (index, device) in recording.devices.enumerated() {
                for line in DeviceReport.lines(device, index: index + 1) { out.line(line) }
            }
        }
    }
}

/// The text `strokes describe` prints for one device.
enum DeviceReport {
    static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    static func lines(_ recorded: RecordedDevice, index: Int) -> [String] {
        let d = recorded.description
        var out: [String] = []
        out.append("device \(index): \(terminalQuoted(d.name))")
        if let node = recorded.node { out.append("  node: \(terminalSafe(node))") }
        out.append(
            "  id: bus \(hex(d.id.bustype)) vendor \(hex(d.id.vendor)) product \(hex(d.id.product)) version \(hex(d.id.version))"
        )
        out.append("  kind: \(d.kind.rawValue)")
        var proto: String
        switch d.touchProtocol {
        case .slots: proto = "multitouch protocol B, \(d.slotCount!) slots, initial slot \(d.initialSlot)"
        case .anonymous: proto = "multitouch protocol A (SYN_MT_REPORT)"
        case .singleTouch: proto = "single touch (ABS_X/ABS_Y + BTN_TOUCH)"
        case .tool:
            let touch = d.has(.key, KeyCode.btnTouch) ? "BTN_TOUCH" : "pressure > 0 (no BTN_TOUCH)"
            proto = "pen (BTN_TOOL_* proximity, \(touch) contact); tools: "
                + d.penTools.map(StrokeEvent.toolName).joined(separator: " ")
        case .none: proto = "none (not a touch device)"
        }
        if d.isSemiMT { proto += ", semi-MT: slots carry a bounding box, not fingers" }
        out.append("  touch: \(proto)")
        if d.touchProtocol != .tool && d.touchProtocol != .none && !d.penToolKeys.isEmpty {
            // A pen sharing the touch device's node (wacom_w8001 before Linux 4.7): lost, but not silently.
            let keys = d.penToolKeys.map { EventNames.describe(.key, $0) }.joined(separator: " ")
            out.append("  pen: \(keys) beside the touch: this pen is not decoded (its tool events count as penToolsIgnored)")
        }
        let props = d.properties.sorted().map { EventNames.propertyName($0) ?? "property \($0)" }
        out.append("  properties: \(props.isEmpty ? "none" : props.joined(separator: " "))")
        for type in d.codes.keys.sorted() where type != .abs {
            let codes = d.codes[type]!.sorted().map { EventNames.describe(type, $0) }
            out.append("  \(EventNames.typeName(type) ?? "type \(type.rawValue)"): \(codes.joined(separator: " "))")
        }
        out.append("  axes:")
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            let name = EventNames.describe(.abs, code).padding(20)
            var line = "    \(name) \(a.minimum)..\(a.maximum)"
            if a.fuzz != 0 { line += " fuzz \(a.fuzz)" }
            if a.flat != 0 { line += " flat \(a.flat)" }
            let isPosition = [AbsCode.x, AbsCode.y, AbsCode.mtPositionX, AbsCode.mtPositionY].contains(code)
            if a.resolution != 0 {
                line += " resolution \(a.resolution)" + (isPosition ? "/mm" : "")
            } else if isPosition {
                line += " resolution unknown"
            }
            if code == AbsCode.mtSlot { line += " value \(a.value)" }
            out.append(line)
        }
        if let x = d.absInfo[d.touchProtocol == .slots ? AbsCode.mtPositionX : AbsCode.x],
            let y = d.absInfo[d.touchProtocol == .slots ? AbsCode.mtPositionY : AbsCode.y]
        {
            if x.resolution > 0 && y.resolution > 0 {
                let w = (Double(x.maximum) - Double(x.minimum)) / Double(x.resolution)
                let h = (Double(y.maximum) - Double(y.minimum)) / Double(y.resolution)
                out.append("  size: \(Int(w.rounded()))x\(Int(h.rounded())) mm")
            } else {
                out.append("  size: unknown (no resolution)")
            }
        }
        let frames = recorded.events.reduce(0) { $0 + ($1.isSynReport ? 1 : 0) }
        out.append("  events: \(recorded.events.count) in \(frames) frames")
        return out
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
