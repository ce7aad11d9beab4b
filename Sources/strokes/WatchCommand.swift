import ArgumentParser
import Foundation
import StrokeClient

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
        var request: [String: Any] = ["id": 1, "request": "subscribe"]
        if !device.isEmpty { request["devices"] = device }
        if noMoves { request["events"] = ["began", "ended", "cancelled", "deviceAdded", "deviceRemoved"] }
        let data = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
        try connection.send(String(decoding: data, as: UTF8.self))
        var out = OutputBuffer()
        while let line = try connection.readLine() {
            if json {
                out.line(line)
            } else if let text = WatchFormat.describe(line) {
                out.line(text)
            }
            out.flush()
            if line.hasPrefix("{\"type\":\"goodbye\"") { break }
        }
        out.flush()
    }
}

/// Readable one-line renderings of protocol messages.
enum WatchFormat {
    static func describe(_ line: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let type = object["type"] as? String
        else { return "? \(line)" }
        func v(_ k: String) -> String {
            guard let x = object[k] else { return "-" }
            if x is NSNull { return "-" }
            return "\(x)"
        }
        switch type {
        case "began", "moved", "ended", "cancelled":
            var s = "\(type.padding(toLength: 9, withPad: " ", startingAt: 0)) stroke \(v("stroke"))  device \(v("device")) slot \(v("slot")) id \(v("trackingId"))  (\(v("x")), \(v("y")))  t=\(v("time"))"
            if let flags = object["flags"] as? [String] { s += "  [" + flags.joined(separator: ",") + "]" }
            if let merged = object["merged"] { s += "  merged \(merged)" }
            if let reason = object["reason"] { s += "  reason \(reason)" }
            return s
        case "deviceAdded": return "device   \(v("device")) added: \(v("name")) (\(v("kind")), \(v("slots")) slots) \(v("path"))"
        case "deviceRemoved": return "device   \(v("device")) removed"
        case "hello": return "connected: \(v("daemon")), protocol \(v("protocol"))"
        case "snapshot":
            let n = (object["strokes"] as? [Any])?.count ?? 0
            return "snapshot: \(n) stroke(s) in progress"
        case "goodbye": return "goodbye: \(v("reason"))"
        case "error": return "error: \(v("error")): \(v("message"))"
        case "reply": return nil
        default: return nil
        }
    }
}
