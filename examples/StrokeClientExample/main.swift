// A drawing app's view of the daemon, with the StrokeClient library: keeps every stroke's
// polyline up to date, prints one line per finished stroke, and survives daemon restarts.
//
//     swift run strokes-client-example [SOCKET] [--strokes N]
//
// In your own package: `.product(name: "StrokeClient", package: "strokes")`.

import StrokeClient
import StrokeProtocol

var arguments = Array(CommandLine.arguments.dropFirst())
var limit = 0
if let i = arguments.firstIndex(of: "--strokes"), i + 1 < arguments.count {
    limit = Int(arguments[i + 1]) ?? 0
    arguments.removeSubrange(i...(i + 1))
}
let client = try await StrokeClient.connect(path: arguments.first ?? StrokeClient.defaultSocketPath)
print("connected: \(client.hello.daemon), devices: \(try await client.devices().map(\.name))")

var polylines: [UInt64: [(Int32, Int32)]] = [:]
var finished = 0
loop: for try await event in client.subscribe() {
    switch event {
    case .gap(let gap):
        print("missed what followed seq \(gap.lastSeq.map(String.init) ?? "-") (\(gap.reason)): starting over")
    case .message(.snapshot(let snapshot)):
        // The last of a repeated id wins: a broken server's snapshot is no reason to trap.
        polylines = Dictionary(snapshot.strokes.map { ($0.stroke, $0.points.map { ($0.x, $0.y) }) }, uniquingKeysWith: { $1 })
    case .message(.stroke(let e)):
        switch e.kind {
        case .began: polylines[e.stroke] = [(e.point.x, e.point.y)]
        case .moved: polylines[e.stroke, default: []].append((e.point.x, e.point.y))
        case .ended, .cancelled:
            let points = polylines.removeValue(forKey: e.stroke)?.count ?? 0
            print("stroke \(e.stroke) \(e.kind)\(e.reason.map { " (\($0))" } ?? ""): \(points) points")
            finished += 1
            if limit > 0 && finished >= limit { break loop }
        }
    case .message(.goodbye(let goodbye)):
        print("daemon said goodbye (\(goodbye.reason)); reconnecting")
    case .message:
        break  // device events, hover, and types a newer daemon adds
    }
}
client.close()
