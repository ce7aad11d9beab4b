import ArgumentParser
import Dispatch
import Evdev
import InputCore
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a live device in evemu format or as libinput record YAML, readable by strokes replay.",
        discussion: """
            evemu files are also read by evemu-play and evemu-device; YAML by libinput's tools. The \
            header holds the device description and, as comments, the slot state when recording \
            started. Stops on Ctrl-C (SIGINT), SIGTERM, or after --duration.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case evemu, yaml
    }

    @Argument(help: "The device: /dev/input/eventN or a /dev/input/by-id or by-path link.")
    var device: String

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output = "-"

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .long, help: "evemu or yaml (libinput record). Default: yaml for a .yml/.yaml output, else evemu.")
    var format: Format?

    private var chosenFormat: Format {
        format ?? ((output.hasSuffix(".yml") || output.hasSuffix(".yaml")) ? .yaml : .evemu)
    }

    func run() throws {
        let dev: EvdevDevice
        do {
            dev = try EvdevDevice(path: device)
        } catch {
            printError("\(error)")
            throw Exit.noInput
        }
        let fd: Int32 = output == "-" ? 1 : open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            printError("cannot write \(output): \(String(cString: strerror(errno)))")
            throw ExitCode(73)  // EX_CANTCREAT
        }
        let names = EvemuWriter.Names(type: EventNames.typeName, code: EventNames.codeName)
        let (slots, current) = dev.slotStates()
        var comments = ["Recorded by strokes from \(device)", "Current slot: \(current)"]
        for (i, s) in slots.enumerated() where s.trackingID >= 0 {
            let axes = s.axes.sorted { $0.key < $1.key }.map { "\(names.code(.abs, $0.key) ?? String($0.key)) \($0.value)" }
            comments.append("Slot \(i): ABS_MT_TRACKING_ID \(s.trackingID), " + axes.joined(separator: ", "))
        }
        let yaml = chosenFormat == .yaml
        if yaml {
            var uts = utsname()
            uname(&uts)
            let kernel = withUnsafeBytes(of: &uts.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            writeAll(fd, Array(LibinputRecordWriter.header(dev.description, node: device, kernel: kernel, names: names, comments: comments).utf8))
        } else {
            writeAll(fd, Array(EvemuWriter.header(dev.description, names: names, comments: comments).utf8))
            writeAll(fd, Array("################################\n#      Waiting for events      #\n################################\n".utf8))
        }
        // YAML groups events by frame: the frame being read, and whether it is a resync frame.
        var frame: [InputEvent] = []
        var frameIsSync = false

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var stop: [Int32] = [-1, -1]
        _ = pipe(&stop)
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let writer = stop[1]
            s.setEventHandler {
                var one: UInt8 = 1
                _ = write(writer, &one, 1)
            }
            s.resume()
            sources.append(s)
        }
        let deadline = duration.map { MonotonicClock.now().microseconds + Int64($0 * 1e6) }
        var start: Timestamp?
        var buffer: [(event: InputEvent, sync: Bool)] = []
        loop: while true {
            var fds = [pollfd(fd: dev.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop[0], events: Int16(POLLIN), revents: 0)]
            let timeout = deadline.map { Int32(max(0, ($0 - MonotonicClock.now().microseconds) / 1000)) } ?? -1
            let rc = poll(&fds, 2, timeout)
            if rc < 0 && errno == EINTR { continue }
            if rc == 0 || fds[1].revents != 0 { break }
            buffer.removeAll(keepingCapacity: true)
            let outcome = dev.read(into: &buffer)
            var text = ""
            var syncing = false
            for (e, sync) in buffer {
                if start == nil { start = e.time }
                if yaml {
                    frame.append(e)
                    frameIsSync = frameIsSync || sync
                    if e.isSynReport {
                        let note = frameIsSync ? "SYN_DROPPED: the kernel dropped events; libevdev's resync frame" : nil
                        text += LibinputRecordWriter.frame(frame, start: start!, names: names, comment: note)
                        frame.removeAll()
                        frameIsSync = false
                    }
                    continue
                }
                if sync && !syncing {
                    // The kernel dropped events; what follows is libevdev's state difference.
                    text += "# SYN_DROPPED: the kernel dropped events; libevdev's resync events follow\n"
                }
                syncing = sync
                text += EvemuWriter.eventLine(e, start: start!, names: names)
            }
            writeAll(fd, Array(text.utf8))
            switch outcome {
            case .drained: continue
            case .removed:
                printError("\(device): the device was removed")
                break loop
            case .failed(let e):
                printError("\(device): read failed: \(String(cString: strerror(e)))")
                break loop
            }
        }
        if yaml && !frame.isEmpty, let start {
            // Stopped mid-frame: kept, marked; readers report it as a truncated last frame.
            writeAll(fd, Array(LibinputRecordWriter.frame(frame, start: start, names: names, comment: "incomplete frame: recording stopped before its SYN_REPORT").utf8))
        }
        if fd != 1 { close(fd) }
    }
}
