import ArgumentParser
import StrokeClient
import StrokeProtocol

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Connect to the daemon and print its events, readably or as raw JSON lines.",
        discussion: "Exits 0 when the daemon says goodbye or closes the connection."
    )

    @Option(name: .long, help: "The daemon's socket.")
    var socket = "/run/strokes/strokes.sock"

    @Flag(name: .long, help: "Print the protocol's JSON lines as they arrive.")
    var json = false

    @Option(name: .long, parsing: .upToNextOption, help: "Only these devices (ids).")
    var device: [UInt32] = []

    @Flag(name: .long, help: "Leave out moved events.")
    var noMoves = false

    func run() throws {
        let connection = try connectToDaemon(socket)
        let events: [Request.StreamType]? = noMoves ? [.began, .ended, .cancelled, .deviceAdded, .deviceRemoved] : nil
        try connection.send(try Request(id: 1, .subscribe(devices: device.isEmpty ? nil : device, events: events)).line())
        var out = OutputBuffer()
        while let line = try connection.readLine() {
            if json {
                // Printed as it came, not decoded: the raw stream is what --json is for, and
                // the cheapest way to pass it on.
                out.line(line)
                out.flush()
                if line.hasPrefix("{\"type\":\"goodbye\"") { break }
                continue
            }
            guard let message = try? ServerMessage(line: line) else {
                out.line("? \(line)")
                out.flush()
                continue
            }
            if let text = WatchFormat.describe(message) { out.line(text) }
            out.flush()
            if case .goodbye = message { break }
        }
        out.flush()
    }
}

/// Readable one-line renderings of protocol messages.
enum WatchFormat {
    /// Nil for what is not worth a line (replies, messages this client does not know).
    static func describe(_ message: ServerMessage) -> String? {
        switch message {
        case .stroke(let e):
            // Padded (or cut) to 9 characters, the longest kind ("cancelled").
            let name = e.kind.rawValue.prefix(9)
            let kind = name + String(repeating: " ", count: 9 - name.count)
            let id = e.trackingId.map(String.init) ?? "-"
            var s = "\(kind) stroke \(e.stroke)  device \(e.device) slot \(e.slot) id \(id)  (\(e.point.x), \(e.point.y))  t=\(e.point.time)"
            if let flags = e.flags { s += "  [" + flags.map(\.rawValue).joined(separator: ",") + "]" }
            if let merged = e.merged { s += "  merged \(merged)" }
            if let reason = e.reason { s += "  reason \(reason)" }
            return s
        case .deviceAdded(let added):
            let d = added.device
            return "device   \(d.device) added: \(d.name) (\(d.kind), \(d.slots) slots) \(d.path)"
        case .deviceRemoved(let d): return "device   \(d.device) removed"
        case .hello(let h): return "connected: \(h.daemon), protocol \(h.protocol)"
        case .snapshot(let s): return "snapshot: \(s.strokes.count) stroke(s) in progress"
        case .goodbye(let g): return "goodbye: \(g.reason)"
        case .error(let e): return "error: \(e.error): \(e.message)"
        case .reply, .hover, .gesture, .replayEnded, .unknown: return nil
        }
    }
}
