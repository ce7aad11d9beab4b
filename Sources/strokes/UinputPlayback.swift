import ArgumentParser
import Evdev
import InputCore
import StrokeRecording

#if canImport(Glibc)
import Glibc
#endif

/// `strokes replay --uinput`: recreates a recording's devices through `/dev/uinput` and writes
/// its frames into them with their recorded timing, so that every input stack on the machine
/// (strokes, libinput, a compositor) sees them as if the hardware were there. Like
/// `libinput replay`.
struct UinputPlayback {
    var speed: Double
    /// Read a line from standard input before playing and another before removing the devices.
    var wait: Bool
    /// Without `wait`: seconds to give readers to open the new devices, and to read the last frame.
    var settle: Double

    private struct TimedFrame {
        var device: Int
        var time: Timestamp
        var events: [InputEvent]
    }

    func play(_ recording: Recording, file: String) throws {
        var devices: [UinputDevice] = []
        for (index, recorded) in recording.devices.enumerated() {
            let device: UinputDevice
            do {
                device = try UinputDevice(description: recorded.description)
            } catch {
                printError("\(file): device \(index + 1): \(error)")
                throw Exit.unavailable
            }
            guard let node = device.waitForDevnode() else {
                printError("\(file): device \(index + 1): the kernel made no /dev/input node")
                throw Exit.unavailable
            }
            devices.append(device)
            writeAll(1, Array("device \(index + 1): \(node) \(terminalSafe(recorded.description.name))\n".utf8))
        }
        let (frames, skipped) = Self.frames(of: recording)
        if skipped > 0 {
            printError("\(file): \(skipped) SYN_DROPPED markers skipped, with the frames they void: a virtual device cannot lose events on purpose")
        }
        pause()
        var pacer = Pacer(speed: speed)
        let started = ContinuousClock.now
        for frame in frames {
            if speed > 0 { pacer.wait(until: frame.time) }
            do {
                try devices[frame.device].writeFrame(frame.events)
            } catch {
                printError("\(file): \(error)")
                throw ExitCode(74)  // EX_IOERR
            }
        }
        let recorded = Double((frames.last?.time.microseconds ?? 0) - (frames.first?.time.microseconds ?? 0)) / 1e6
        let took = started.duration(to: .now)
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        printError("\(file): played \(frames.count) frames in \(twoDecimals(seconds)) s (recorded: \(twoDecimals(recorded)) s)")
        pause()
        for d in devices { d.destroy() }
    }

    private func pause() {
        if wait {
            var byte: UInt8 = 0
            while read(0, &byte, 1) == 1 && byte != 0x0a {}
        } else if settle > 0 {
            usleep(UInt32(settle * 1_000_000))
        }
    }

    /// The recording's frames of all devices in time order, as `FrameAssembler` makes them (the
    /// terminating `SYN_REPORT` is written by `UinputDevice.writeFrame`), and how many
    /// `SYN_DROPPED` markers were left out with the events they void. Events after the last
    /// `SYN_REPORT` are left out too: a replay cannot apply them either.
    private static func frames(of recording: Recording) -> ([TimedFrame], Int) {
        var frames: [TimedFrame] = []
        var skipped = 0
        for (index, device) in recording.devices.enumerated() {
            var assembler = FrameAssembler()
            for e in device.events {
                switch assembler.feed(e) {
                case .frame(let f): frames.append(TimedFrame(device: index, time: f.time, events: f.events))
                case .dropped: skipped += 1
                case nil: break
                }
            }
        }
        // Stable: frames of one device keep their order when times tie.
        let order = frames.indices.sorted { (frames[$0].time, $0) < (frames[$1].time, $1) }
        return (order.map { frames[$0] }, skipped)
    }
}

/// A duration (≥ 0) with two decimals, as `%.2f` prints it.
private func twoDecimals(_ seconds: Double) -> String {
    let hundredths = Int((max(0, seconds) * 100).rounded())
    let cents = hundredths % 100
    return "\(hundredths / 100).\(cents < 10 ? "0" : "")\(cents)"
}
