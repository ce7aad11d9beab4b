import Evdev
import InputCore
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

/// `strokes record`'s output: a live device's events as evemu lines or as libinput record YAML
/// frames, with libevdev's resync events (after `SYN_DROPPED`) marked in comments.
struct CaptureWriter {
    enum Format: String, CaseIterable {
        case evemu, yaml
    }

    let format: Format
    private let names = EvemuWriter.Names(type: EventNames.typeName, code: EventNames.codeName)
    private var start: Timestamp?
    /// evemu: whether the previous event was a resync event.
    private var syncing = false
    /// YAML: the frame being read, and whether it is a resync frame.
    private var frame: [InputEvent] = []
    private var frameIsSync = false

    init(format: Format) { self.format = format }

    /// The header: the device, and as comments where it was read and its slot state.
    func header(_ dev: EvdevDevice, node: String) -> String {
        let (slots, current) = dev.slotStates()
        var comments = ["Recorded by strokes from \(node)", "Current slot: \(current)"]
        for (i, s) in slots.enumerated() where s.trackingID >= 0 {
            let axes = s.axes.sorted { $0.key < $1.key }.map { "\(names.code(.abs, $0.key) ?? String($0.key)) \($0.value)" }
            comments.append("Slot \(i): ABS_MT_TRACKING_ID \(s.trackingID), " + axes.joined(separator: ", "))
        }
        switch format {
        case .yaml:
            var uts = utsname()
            uname(&uts)
            let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return LibinputRecordWriter.header(dev.description, node: node, kernel: kernel, names: names, comments: comments)
        case .evemu:
            return EvemuWriter.header(dev.description, names: names, comments: comments)
                + "################################\n#      Waiting for events      #\n################################\n"
        }
    }

    /// The text for one event read (`sync`: one of libevdev's resync events); YAML writes a whole
    /// frame at its `SYN_REPORT`.
    mutating func append(_ e: InputEvent, sync: Bool) -> String {
        if start == nil { start = e.time }
        switch format {
        case .evemu:
            // The kernel dropped events; what follows is libevdev's state difference.
            let note = sync && !syncing ? "# SYN_DROPPED: the kernel dropped events; libevdev's resync events follow\n" : ""
            syncing = sync
            return note + EvemuWriter.eventLine(e, start: start!, names: names)
        case .yaml:
            frame.append(e)
            frameIsSync = frameIsSync || sync
            guard e.isSynReport else { return "" }
            let note = frameIsSync ? "SYN_DROPPED: the kernel dropped events; libevdev's resync frame" : nil
            defer {
                frame.removeAll()
                frameIsSync = false
            }
            return LibinputRecordWriter.frame(frame, start: start!, names: names, comment: note)
        }
    }

    /// What is left when recording stops: a YAML frame cut before its `SYN_REPORT`, kept and
    /// marked (readers report it as a truncated last frame).
    func finish() -> String {
        guard format == .yaml, !frame.isEmpty, let start else { return "" }
        return LibinputRecordWriter.frame(frame, start: start, names: names, comment: "incomplete frame: recording stopped before its SYN_REPORT")
    }
}
