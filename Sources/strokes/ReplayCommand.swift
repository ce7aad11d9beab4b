import ArgumentParser
import InputCore
import MultitouchDecoder
import StrokeProtocol
import StrokeRecording
import StrokeReplay
import StrokeTracker

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

    @Option(help: "With --uinput: playback speed (2 = twice as fast, 0 = as fast as possible).")
    var speed: Double = 1

    @Flag(help: "With --uinput: wait for a line on standard input before playing, and another before removing the devices.")
    var wait = false

    @Option(help: "With --uinput and no --wait: seconds to pause after creating the devices (for readers to open them) and before removing them.")
    var settle: Double = 1

    func validate() throws {
        guard JumpSetting(text: touchJumps) != nil else { throw ValidationError("--touch-jumps must be default, off or a positive number of millimetres") }
        guard history >= 0 else { throw ValidationError("--history must not be negative") }
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more") }
        guard settle >= 0, settle.isFinite else { throw ValidationError("--settle must be 0 or more") }
        if uinput && (summary || realtime) { throw ValidationError("--uinput plays into devices; it cannot be combined with --summary or --realtime") }
        if uinput && !groups.isEmpty { throw ValidationError("--group applies to decoding; it cannot be combined with --uinput") }
        _ = try parsedGroups()
    }

    /// `--group` values as device numbers.
    func parsedGroups() throws -> [[UInt32]] {
        try groups.map { text in
            let numbers = text.split(separator: ",").map { UInt32($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count >= 2, numbers.allSatisfy({ ($0 ?? 0) >= 1 }) else {
                throw ValidationError("--group takes two or more device numbers from 1, separated by commas: '\(text)'")
            }
            return numbers.map { $0! }
        }
    }

    func run() throws {
        var out = OutputBuffer()
        defer { out.flush() }
        let groups = try parsedGroups()
        var inputs: [(file: String, recording: Recording)] = []
        for file in files { inputs.append((file, try loadRecording(file, flushing: &out))) }
        if !groups.isEmpty, inputs.count > 1 {
            // Grouped devices interact, so the files are one replay: devices numbered in file order.
            let merged = Recording(format: inputs[0].recording.format, devices: inputs.flatMap(\.recording.devices))
            inputs = [(files.joined(separator: " + "), merged)]
        }
        for (file, recording) in inputs {
            if uinput {
                try UinputPlayback(speed: speed, wait: wait, settle: settle).play(recording, file: file)
                continue
            }
            for (index, device) in recording.devices.enumerated() {
                if let tail = device.truncatedTail {
                    printError(
                        "warning: \(file):\(tail.line): the recording ends mid-frame (device \(index + 1)): \(tail.eventCount) events after the last SYN_REPORT were not applied"
                    )
                }
            }
            var replayer: Replayer
            do {
                replayer = try Replayer(recording: recording, historyLimit: history, groups: groups)
            } catch {
                out.flush()
                printError("\(file): \(error)")
                throw Exit.dataError
            }
            replayer.setJumps(JumpSetting(text: touchJumps)!)
            if summary {
                var scratch: [StrokeEvent] = []
                while replayer.next(into: &scratch) != nil { scratch.removeAll(keepingCapacity: true) }
                if files.count > 1 { out.line("file: \(file)") }
                for line in replayer.finalSummary.lines { out.line(line) }
                continue
            }
            try stream(&replayer, to: &out)
        }
    }

    private func stream(_ replayer: inout Replayer, to out: inout OutputBuffer) throws {
        var events: [StrokeEvent] = []
        let geometries = Dictionary(uniqueKeysWithValues: replayer.devices.map { ($0.id, $0.geometry) })
        var pacer = realtime ? Pacer() : nil
        while let step = replayer.next(into: &events) {
            if pacer != nil {
                pacer!.wait(until: step.time)
            }
            for e in events {
                if case .hover = e.kind, !hover { continue }
                out.line(e.json(geometry: geometries[e.device]!))
            }
            events.removeAll(keepingCapacity: true)
            if pacer != nil { out.flush() }
        }
        let final = replayer.finalSummary
        var w = JSONWriter()
        w.field("type", "replayEnded")
        w.field("frames", final.frames)
        w.raw("stillActive", "[" + replayer.tracker.live.map { String($0.id.rawValue) }.joined(separator: ",") + "]")
        out.line(w.finish())
    }
}

/// Sleeps so that frames come out with their recorded spacing (divided by `speed`).
struct Pacer {
    var speed: Double
    private var origin: (recorded: Int64, wall: ContinuousClock.Instant)?

    init(speed: Double = 1) { self.speed = speed }

    mutating func wait(until time: Timestamp) {
        let now = ContinuousClock.now
        guard let origin else {
            self.origin = (time.microseconds, now)
            return
        }
        let due = origin.wall + .microseconds(Int64(Double(time.microseconds - origin.recorded) / speed))
        let delay = now.duration(to: due)
        guard delay > .zero else { return }
        let (seconds, attoseconds) = delay.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
