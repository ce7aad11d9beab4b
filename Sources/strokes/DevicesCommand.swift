import ArgumentParser
import Evdev
import InputCore
import StrokeDaemon
import StrokeRecording

struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the input devices strokes sees, and which of them it would serve.",
        discussion: "Reads /dev/input/event* through libevdev; needs read access (root or group input)."
    )

    @Flag(name: .long, help: "List every input device, not only touch devices.")
    var all = false

    @Flag(name: .long, help: "Print only the paths of the touch devices, one a line (for scripts: Scripts/run.sh).")
    var paths = false

    func validate() throws {
        if all && paths { throw ValidationError("--paths lists touch devices only; it cannot be combined with --all") }
    }

    func run() throws {
        var out = OutputBuffer()
        defer { out.flush() }
        let nodes = EvdevSource.eventNodes()
        if nodes.isEmpty { printError("no /dev/input/event* nodes on this machine") }
        var shown = 0
        for path in nodes {
            let device: EvdevDevice
            do {
                device = try EvdevDevice(path: path)
            } catch {
                if all { out.line("\(path): \(error)") }
                continue
            }
            let d = device.description
            let touch = EvdevSource.isTouch(d)
            guard touch || all else { continue }
            shown += 1
            if paths {
                out.line(path)
                continue
            }
            out.line("\(path): \(terminalQuoted(d.name)) \(touch ? "touch" : "not touch")")
            for line in DeviceReport.lines(RecordedDevice(description: d, node: path, events: []), index: shown).dropFirst() { out.line("  " + line) }
        }
        if shown == 0 && !nodes.isEmpty { printError("no touch devices found (try --all, or check permissions)") }
    }
}
