import ArgumentParser
import InputCore
import StrokeClient
import StrokeProtocol

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Connect to the daemon and print its events, readably or as raw JSON lines.",
        discussion: "Exits 0 when the daemon says goodbye or closes the connection."
    )

    @Option(name: .long, help: "The daemon's socket (default: $STROKES_SOCKET, else /run/strokes/strokes.sock, else $XDG_RUNTIME_DIR/strokes.sock).")
    var socket: String?

    @Flag(name: .long, help: "Print the protocol's JSON lines as they arrive.")
    var json = false

    @Option(name: .long, parsing: .upToNextOption, help: "Only these devices (ids).")
    var device: [UInt32] = []

    @Flag(name: .long, help: "Leave out moved events.")
    var noMoves = false

    @Flag(name: .long, help: "Also show gestures (the daemon's feature 'gestures'; docs/gestures.md).")
    var gestures = false

    /// The subscription's `events`: nil (the default set) unless a flag changes it.
    var streamTypes: [Request.StreamType]? {
        var types: [Request.StreamType] = [.began, .moved, .ended, .cancelled, .deviceAdded, .deviceRemoved]
        if noMoves { types.removeAll { $0 == .moved } }
        if gestures { types.append(.gesture) }
        return noMoves || gestures ? types : nil
    }

    /// Where the daemon listens: `--socket`, else the clients' default (`StrokeClient`).
    var path: String { socket ?? StrokeClient.defaultSocketPath }

    func run() throws {
        let connection = try connectToDaemon(path)
        let events = streamTypes
        try connection.send(try Request(id: 1, .subscribe(devices: device.isEmpty ? nil : device, events: events)).line())
        var out = OutputBuffer()
        var greeted = false
        while let line = try readLine(connection, greeted: greeted) {
            if !greeted {
                try checkGreeting(line, from: path)
                greeted = true
            }
            if json {
                // Printed as it came, not decoded: the raw stream is what --json is for, and
                // the cheapest way to pass it on.
                out.line(line)
                out.flush()
                if line.hasPrefix("{\"type\":\"goodbye\"") { break }
                continue
            }
            guard let message = try? ServerMessage(line: line) else {
                out.line("? \(terminalSafe(line))")
                out.flush()
                continue
            }
            // Whole, as every field the daemon sends may be quoted (its version, a reason, flags).
            if let text = WatchFormat.describe(message) { out.line(terminalSafe(text)) }
            out.flush()
            if case .goodbye = message { break }
        }
        out.flush()
    }

    /// The next line; the first, the daemon's `hello`, within `helloTimeout` (it is sent on
    /// accepting: silence is a stopped daemon or a socket that is not the daemon's).
    private func readLine(_ connection: LineSocket, greeted: Bool) throws -> String? {
        do {
            return try connection.readLine(timeout: greeted ? nil : Self.helloTimeout)
        } catch let error as LineSocket.Error where error.timedOut {
            printError("\(path) sent no hello within \(Int(Self.helloTimeout)) s (a stopped daemon, or not a strokes socket)")
            throw Exit.unavailable
        }
    }

    static let helloTimeout = 5.0
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
            return "device   \(d.device) added: \(terminalSafe(d.name)) (\(d.kind), \(d.slots) slots) \(terminalSafe(d.path))"
        case .deviceRemoved(let d): return "device   \(d.device) removed"
        case .hello(let h): return "connected: \(h.daemon), protocol \(h.protocol)"
        case .snapshot(let s): return "snapshot: \(s.strokes.count) stroke(s) in progress"
        case .goodbye(let g): return "goodbye: \(g.reason)"
        case .error(let e): return "error: \(e.error): \(e.message)"
        case .gesture(let g): return describe(g)
        case .reply, .hover, .replayEnded, .unknown: return nil
        }
    }

    /// `gesture  swipe end #3  device 1, 4 fingers [5,6,7,8]  down 60.3 mm at 120.5 mm/s  t=2.650000`
    static func describe(_ g: GestureMessage) -> String {
        func mm(_ v: Double) -> String { JSONWriter.fixed(v, decimals: 1) }
        var s = "gesture  \(g.kind.rawValue) \(g.phase.rawValue) #\(g.gesture)  device \(g.device), \(g.fingers) finger"
        s += g.fingers == 1 ? "" : "s"
        s += " [" + g.strokes.map(String.init).joined(separator: ",") + "]"
        if let x = g.mmX, let y = g.mmY { s += "  at (\(mm(x)), \(mm(y))) mm" } else { s += "  at (\(mm(g.x)), \(mm(g.y)))" }
        if let edge = g.edge { s += "  from the \(edge.rawValue) edge" }
        if let direction = g.direction {
            s += "  \(direction.rawValue)"
            if let dx = g.dmmX, let dy = g.dmmY { s += " \(mm((dx * dx + dy * dy).squareRoot())) mm" }
            if let v = g.velocity { s += " at \(mm(v)) mm/s" }
        }
        if let scale = g.scale { s += "  scale \(JSONWriter.fixed(scale, decimals: 3))" }
        if let angle = g.angle { s += "  angle \(mm(angle))°" }
        s += "  t=\(Double(g.time) / 1_000_000)"
        return s
    }
}
