import ArgumentParser
import GestureRecognizer
import InputCore
import MultitouchDecoder
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run recordings through the stroke pipeline and print stroke events as JSON lines.",
        discussion: """
            Reads evemu (evemu-record), libinput record YAML and evtest text output, detected from \
            the content. Each stroke event is one JSON object per line, in the shape the socket \
            protocol uses (docs/protocol.md); a final {"type":"replayEnded"} line lists strokes still \
            in progress when the recording ends.
            """
    )

    @Argument(help: "Recording files ('-' for standard input).")
    var files: [String]

    @Flag(help: "Print per-recording figures (frames, strokes, most concurrent, duration) instead of events.")
    var summary = false

    @Flag(help: "Keep the recorded timing between frames instead of running as fast as possible.")
    var realtime = false

    @Flag(help: "Also print hover events (a pen, or a contact that reports a distance, near the surface without touching it).")
    var hover = false

    @Flag(help: "Also print gesture events (docs/gestures.md), after the stroke events of the frame that produced them.")
    var gestures = false

    @Option(
        name: .customLong("group"),
        help: ArgumentHelp(
            "Devices of one hardware, as device numbers in file order (e.g. 1,2): replays every file together, and while a pen of the group is in proximity its finger strokes are cancelled ('pen') and new touches not published.",
            valueName: "N,N"))
    var groups: [String] = []

    @Option(help: "How many completed strokes the tracker keeps.")
    var history = 256

    @Option(help: ArgumentHelp(
        "Touch-jump detection: default (on for touchpads), off, or a threshold in millimetres per 12 ms frame.",
        valueName: "default|off|MM"))
    var touchJumps = "default"

    @Flag(help: ArgumentHelp(
        "Instead of decoding: create the recording's devices through /dev/uinput and play its frames into them.",
        discussion: "Prints 'device N: NODE NAME' per device, then plays with the recorded timing. Every input stack on the machine sees the virtual devices."))
    var uinput = false

    @Option(help: "With --uinput or --realtime: playback speed (2 = twice as fast, 0 = as fast as possible; default 1).")
    var speed: Double?

    @Flag(help: "With --uinput: wait for a line on standard input before playing, and another before removing the devices.")
    var wait = false

    @Option(help: "With --uinput and no --wait: seconds to pause after creating the devices (for readers to open them) and before removing them.")
    var settle: Double?

    func validate() throws {
        guard JumpSetting(text: touchJumps) != nil else { throw ValidationError("--touch-jumps must be default, off or a positive number of millimetres") }
        guard history >= 0 else { throw ValidationError("--history must not be negative") }
        if let speed { guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more") } }
        if let settle { guard settle >= 0, settle.isFinite else { throw ValidationError("--settle must be 0 or more") } }
        // Options that would do nothing are refused, not ignored (an adversary's finding: a user
        // asking for --realtime --speed 10 got the recorded pace without a word).
        if speed != nil && !uinput && !realtime { throw ValidationError("--speed paces --uinput or --realtime playback") }
        if (wait || settle != nil) && !uinput { throw ValidationError("--wait and --settle apply to --uinput playback") }
        if uinput && (summary || realtime) { throw ValidationError("--uinput plays into devices; it cannot be combined with --summary or --realtime") }
        if uinput && !groups.isEmpty { throw ValidationError("--group applies to decoding; it cannot be combined with --uinput") }
        _ = try parsedGroups()
    }

    /// `--group` values as device numbers. A device is in one group at most (as in libinput, whose
    /// device groups are hardware): groups that share a device are refused, not silently replaced.
    func parsedGroups() throws -> [[UInt32]] {
        var groupOf: [UInt32: String] = [:]
        return try groups.map { text in
            let numbers = text.split(separator: ",").map { UInt32(String(trimmingBlanks($0))) }
            guard numbers.count >= 2, numbers.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                throw ValidationError("--group takes two or more device numbers from 1, separated by commas: '\(text)'")
            }
            for n in numbers.map({ $0! }) {
                if let other = groupOf[n] {
                    throw ValidationError(
                        other == text
                            ? (numbers.filter { $0 == n }.count > 1
                                ? "--group '\(text)' names device \(n) twice" : "--group '\(text)' is given twice")
                            : "device \(n) is in two groups ('\(other)' and '\(text)'): a device belongs to one group; "
                                + "name every device of one hardware in one --group (e.g. 1,2,3)")
                }
                groupOf[n] = text
            }
            return numbers.map { $0! }
        }
    }

    /// A group that names a device the replay does not have is refused: arbitration would be off
    /// without a word.
    private func checkGroups(_ groups: [[UInt32]], devices: Int, file: String) throws {
        for (group, text) in zip(groups, self.groups) {
            if let missing = group.first(where: { Int($0) > devices }) {
                printError("--group \(text): there is no device \(missing): \(file) holds \(devices) device\(devices == 1 ? "" : "s")")
                throw Exit.usage
            }
        }
    }

    func run() throws {
        var out = OutputBuffer()
        defer { out.flush() }
        let groups = try parsedGroups()
        if !groups.isEmpty, files.count > 1 {
            // Grouped devices interact, so the files are one replay, devices numbered in file
            // order. Their events are read into memory to be merged (docs/decoder.md, "Recordings").
            var recordings: [Recording] = []
            for file in files { recordings.append(try loadRecording(file, flushing: &out)) }
            let merged = Recording(format: recordings[0].format, devices: recordings.flatMap(\.devices))
            let name = files.joined(separator: " + ")
            try replay(RecordingStream(memory: merged, file: name), file: name, groups: groups, out: &out)
            return
        }
        for file in files {
            if uinput {
                let recording = try loadRecording(file, flushing: &out)
                try UinputPlayback(speed: speed ?? 1, wait: wait, settle: settle ?? 1).play(recording, file: file)
                continue
            }
            try replay(try openRecording(file, flushing: &out), file: file, groups: groups, out: &out)
        }
    }

    /// Replays one recording (or several merged) to `out`: its events, or its summary.
    private func replay(_ opened: RecordingStream, file: String, groups: [[UInt32]], out: inout OutputBuffer) throws {
        try checkGroups(groups, devices: opened.devices.count, file: file)
        var replayer: Replayer
        do {
            replayer = try Replayer(stream: opened, historyLimit: history, groups: groups)
        } catch {
            out.flush()
            printError("\(file): \(error)")
            throw Exit.dataError
        }
        replayer.setJumps(JumpSetting(text: touchJumps)!)
        do {
            if summary {
                var scratch: [StrokeEvent] = []
                while try replayer.next(into: &scratch) != nil { scratch.removeAll(keepingCapacity: true) }
                warnAboutSkippedAndTruncated(replayer, file: file, flushing: &out)
                if files.count > 1 { out.line("file: \(terminalSafe(file))") }
                for line in replayer.finalSummary.lines { out.line(line) }
                return
            }
            try stream(&replayer, file: file, to: &out)
        } catch {
            // A malformed event line deep in the file: what was printed stays printed (it is
            // what the recording held up to there), no `replayEnded` line follows, and the
            // exit status says the input was bad.
            out.flush()
            printError(error.description)
            throw Exit.dataError
        }
    }

    /// Warns once per file on standard error: lines the reader skipped (the first one's number),
    /// and events after the last `SYN_REPORT` that no frame applied.
    private func warnAboutSkippedAndTruncated(_ replayer: Replayer, file: String, flushing out: inout OutputBuffer) {
        out.flush()
        let skipped = replayer.skippedLines
        if let first = skipped.firstLine {
            printError(
                "warning: \(file):\(first): skipped \(skipped.count) line\(skipped.count == 1 ? "" : "s") that \(skipped.count == 1 ? "is" : "are") not part of the recording (this is the first)"
            )
        }
        for (device, tail) in replayer.truncated {
            printError(
                "warning: \(file):\(tail.line): the recording ends mid-frame (device \(device)): \(tail.eventCount) events after the last SYN_REPORT were not applied"
            )
        }
    }

    private func stream(_ replayer: inout Replayer, file: String, to out: inout OutputBuffer) throws(RecordingError) {
        var events: [StrokeEvent] = []
        let geometries = Dictionary(uniqueKeysWithValues: replayer.devices.map { ($0.id, $0.geometry) })
        var pacer = realtime && speed != 0 ? Pacer(speed: speed ?? 1) : nil
        var recognizers = GestureRecognizers()
        if gestures {
            for d in replayer.devices { recognizers.add(d.id, geometry: d.geometry, kind: d.description.kind) }
        }
        var steps: [Gesture] = []
        while let step = try replayer.next(into: &events) {
            if pacer != nil {
                pacer!.wait(until: step.time)
            }
            for e in events {
                if case .hover = e.kind, !hover { continue }
                out.line(e.json(geometry: geometries[e.device]!))
            }
            if gestures {
                if replayer.devices.count > 1 { recognizers.advanceAll(to: step.time, into: &steps) }
                recognizers.process(events, device: step.device, time: step.time, into: &steps)
                for g in steps { out.line(g.json()) }
                steps.removeAll(keepingCapacity: true)
            }
            events.removeAll(keepingCapacity: true)
            if pacer != nil { out.flush() }
        }
        warnAboutSkippedAndTruncated(replayer, file: file, flushing: &out)
        let final = replayer.finalSummary
        var w = JSONWriter()
        w.field("type", "replayEnded")
        w.field("frames", final.frames)
        w.raw("stillActive", "[" + replayer.tracker.live.map { String($0.id.rawValue) }.joined(separator: ",") + "]")
        out.line(w.finish())
    }
}

/// Sleeps so that frames come out with their recorded spacing (divided by `speed`), spaced as
/// `PlayClock` plays them: times that step back start the spacing over.
struct Pacer {
    var speed: Double
    private var clock = PlayClock()
    /// When the first frame came.
    private var start: ContinuousClock.Instant?

    init(speed: Double = 1) { self.speed = speed }

    mutating func wait(until time: Timestamp) {
        let now = ContinuousClock.now
        let played = clock.play(time)
        guard let start else {
            self.start = now
            return
        }
        // At most 10^15 µs (31 years) ahead, as the daemon's replay: a tiny speed, or a crafted
        // recording's times, would not fit a `Duration`'s microseconds.
        let due = start + .microseconds(Int64(min(played / speed, 1e15)))
        let delay = now.duration(to: due)
        guard delay > .zero else { return }
        let (seconds, attoseconds) = delay.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        // Through the funnel: a signal resumes the sleep with what remained of it.
        do {
            _ = try Syscall.retrying {
                defer { request = remaining }
                return nanosleep(&request, &remaining)
            }
        } catch {
            preconditionFailure("nanosleep: \(error)")  // EINVAL: the request was computed wrong
        }
    }
}

/// `text` without the spaces and tabs at either end.
private func trimmingBlanks(_ text: Substring) -> Substring {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
    return text[first...last]
}
