import ArgumentParser
import StrokeClient
import StrokeProtocol
import StrokeRender

/// What `strokes render --socket` draws: a running daemon's devices, its completed strokes
/// (`history`) and those in progress (the subscription's `snapshot`), plus, with `follow`, what
/// the live stream brings for that long.
///
/// The subscription comes first and `history` after its snapshot, so no stroke falls between the
/// two: one that ends meanwhile is in both (the ended one wins) or reaches us as stream events.
enum DaemonScene {
    static let replyTimeout = 10.0

    static func fetch(path: String, follow: Double) throws -> RenderScene {
        let connection = try connectToDaemon(path)
        do {
            return try fetch(over: connection, path: path, follow: follow)
        } catch let error as LineSocket.Error {
            printError("daemon at \(path): \(error)")
            throw Exit.unavailable
        } catch let exit as ExitCode {
            throw exit  // said already (`checkGreeting`)
        } catch {
            // A decoding error, or a line that is not JSON.
            printError("daemon at \(path) sent something this client cannot read: \(error)")
            throw Exit.dataError
        }
    }

    /// The history strokes asked for: the protocol's largest `limit`, every stroke a daemon keeps
    /// unless its `history` is set higher.
    static let historyLimit = 1_000_000

    private static func fetch(over connection: LineSocket, path: String, follow: Double) throws -> RenderScene {
        try connection.send(try Request(id: 1, .devices).line())
        try connection.send(try Request(id: 2, .subscribe(events: [.began, .moved, .ended, .cancelled, .deviceAdded])).line())
        var devices: [UInt32: RenderScene.Device] = [:]
        var collector = StrokeCollector()
        var historyDone = false
        // Cursors already asked for: a server that hands one back again would be paged forever.
        var cursors = Set<String>()
        // History strokes received; more than were asked for (`historyLimit`) is refused, as is a
        // page with a cursor and no strokes: a server handing out fresh cursors ends too.
        var historyStrokes = 0
        var deadline: ContinuousClock.Instant?
        var greeted = false
        while true {
            var timeout = replyTimeout
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { break }
                timeout = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            }
            let line: String?
            do {
                line = try connection.readLine(timeout: timeout)
            } catch let error as LineSocket.Error where error.timedOut && deadline != nil {
                continue  // quiet until the deadline (checked above; poll's milliseconds may end it a little early)
            }
            guard let line else { break }  // the daemon went away: draw what came
            if !greeted {
                try checkGreeting(line, from: path)
                greeted = true
                continue
            }
            switch try ServerMessage(line: line) {
            case .reply(let reply):
                switch reply.result {
                case .devices(let list):
                    for d in list { devices[d.device] = RenderScene.Device(d) }
                case .history(let page):
                    historyStrokes += page.strokes.count
                    guard historyStrokes <= historyLimit else {
                        throw LineSocket.Error(message: "sent more than the \(historyLimit) history strokes asked for")
                    }
                    for s in page.strokes { collector.insert(try RenderScene.Stroke(s)) }
                    // A reply is one page (docs/protocol.md, "History pages"): ask for the next.
                    if let cursor = page.cursor {
                        guard !page.strokes.isEmpty else {
                            throw LineSocket.Error(message: "sent a history page with a cursor and no strokes")
                        }
                        guard cursors.insert(cursor).inserted else {
                            throw LineSocket.Error(message: "sent the history cursor \(cursor) a second time")
                        }
                        try connection.send(try Request(id: 3, .history(cursor: cursor)).line())
                        continue
                    }
                    historyDone = true
                    deadline = .now + .milliseconds(Int64(follow * 1000))
                case .subscribe, .unsubscribe, .live, .ping, .stats, .unknown: break
                }
            case .snapshot(let snapshot):
                for s in snapshot.strokes { collector.insert(try RenderScene.Stroke(s)) }
                try connection.send(try Request(id: 3, .history(limit: historyLimit)).line())
            case .deviceAdded(let added):
                devices[added.device.device] = RenderScene.Device(added.device)
            case .error(let error):
                throw LineSocket.Error(message: "error \(error.error): \(error.message)")
            case .goodbye(let goodbye):
                if !historyDone { throw LineSocket.Error(message: "said goodbye (\(goodbye.reason)) before answering") }
                deadline = .now
            case .stroke(let event):
                collector.apply(event)
            case .hello, .hover, .gesture, .deviceRemoved, .replayEnded, .unknown: break
            }
        }
        guard historyDone else { throw LineSocket.Error(message: "closed the connection before answering") }
        // Strokes of devices the daemon no longer lists (removed) still get a panel.
        for s in collector.strokes where devices[s.device] == nil {
            devices[s.device] = RenderScene.Device(
                id: s.device, name: "device \(s.device)", kind: "other", x: .init(minimum: 0, maximum: 0),
                y: .init(minimum: 0, maximum: 0), hasPressure: s.points.contains { $0.pressure != nil },
                hasTouchMajor: s.points.contains { $0.touchMajor != nil }, described: false
            )
        }
        return RenderScene(title: "daemon at \(path)", devices: Array(devices.values), strokes: collector.strokes)
    }
}
