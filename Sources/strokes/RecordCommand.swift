import ArgumentParser
import Dispatch
import Evdev
import InputCore
import SystemSupport

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

    @Argument(help: "The device: /dev/input/eventN or a /dev/input/by-id or by-path link.")
    var device: String

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output = "-"

    @Option(name: .long, help: "Stop after this many seconds.")
    var duration: Double?

    @Option(name: .long, help: "evemu or yaml (libinput record). Default: yaml for a .yml/.yaml output, else evemu.")
    var format: CaptureWriter.Format?

    func validate() throws {
        // At most 10^9 seconds (31 years): the deadline is counted in microseconds.
        if let duration, !(duration > 0 && duration <= 1e9) {
            throw ValidationError("--duration must be above 0 and at most 1000000000 seconds")
        }
    }

    private var chosenFormat: CaptureWriter.Format {
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
        let fd: Int32
        do {
            fd = output == "-" ? 1 : try Syscall.retrying { FileName.withCString(output) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) } }
        } catch {
            printError("cannot write \(output): \(error)")
            throw Exit.cannotCreate
        }
        var writer = CaptureWriter(format: chosenFormat)
        writeAll(fd, Array(writer.header(dev, node: device).utf8))

        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        var stop: [Int32] = [-1, -1]
        do {
            _ = try Syscall.retrying { pipe(&stop) }
        } catch {
            printError("pipe: \(error)")
            throw Exit.software
        }
        var sources: [DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            let stopWriter = stop[1]
            s.setEventHandler {
                // A byte or two in an empty pipe: the write cannot block, and cannot fail unnoticed.
                var one: UInt8 = 1
                do {
                    _ = try Syscall.retrying { write(stopWriter, &one, 1) }
                } catch {
                    preconditionFailure("cannot wake the recording loop: \(error)")
                }
            }
            s.resume()
            sources.append(s)
        }
        let deadline = duration.map { MonotonicClock.now().microseconds + Int64($0 * 1e6) }
        var buffer: [(event: InputEvent, sync: Bool)] = []
        loop: while true {
            var fds = [pollfd(fd: dev.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop[0], events: Int16(POLLIN), revents: 0)]
            let rc: Int32
            do {
                // The timeout is computed again for a call that a signal interrupted.
                rc = try Syscall.retrying {
                    poll(&fds, 2, deadline.map { Int32(max(0, ($0 - MonotonicClock.now().microseconds) / 1000)) } ?? -1)
                }
            } catch {
                printError("poll: \(error)")
                break loop
            }
            if rc == 0 || fds[1].revents != 0 { break }
            buffer.removeAll(keepingCapacity: true)
            let outcome = dev.read(into: &buffer)
            var text = ""
            for (e, sync) in buffer { text += writer.append(e, sync: sync) }
            writeAll(fd, Array(text.utf8))
            switch outcome {
            case .drained: continue
            case .removed:
                printError("\(device): the device was removed")
                break loop
            case .failed(let e):
                printError("\(device): read failed: \(e)")
                break loop
            }
        }
        writeAll(fd, Array(writer.finish().utf8))
        if fd != 1 {
            do {
                try Syscall.closeDescriptor(fd)
            } catch {
                printError("cannot write \(output): \(error)")  // close is where NFS and friends report a failed write
                throw Exit.ioError
            }
        }
    }
}

extension CaptureWriter.Format: ExpressibleByArgument {}
