import NIOCore
import StrokeProtocol
import StrokeTracker

// Requests (docs/protocol.md, "Requests"). Each gets exactly one `reply` or `error` with its id;
// a subscribe's reply is followed by its snapshot or resumed messages, then the live stream.
extension Daemon {
    func handle(line: Substring, from client: ClientConnection) {
        switch ClientRequest.parse(line) {
        case .failure(let error):
            client.logger.debug("bad request", metadata: ["error": "\(error.code.rawValue)"])
            send(error.json, to: client)
        case .success(let request):
            handle(request, from: client)
        }
    }

    private func handle(_ request: ClientRequest, from client: ClientConnection) {
        switch request.command {
        case .subscribe(let sub):
            var reply = JSONWriter()
            reply.field("type", "reply")
            reply.raw("id", request.id)
            reply.field("request", "subscribe")
            subscribe(client, sub, reply: &reply)
        case .unsubscribe:
            guard client.subscription != nil else {
                send(ProtocolError(.notSubscribed, "no subscription to end", id: request.id).json, to: client)
                return
            }
            client.subscription = nil
            updateGestureSubscribers()
            client.queue.sealMerges()
            var reply = JSONWriter()
            reply.field("type", "reply")
            reply.raw("id", request.id)
            reply.field("request", "unsubscribe")
            reply.field("seq", hub.seq)
            send(reply.finish(), to: client)
        case .devices, .live, .history, .ping, .stats:
            send(answer(request, client: client), to: client)
        }
    }

    /// The reply (or error) line to a request that needs no subscription: `devices`, `live`,
    /// `history`, `ping`, `stats` (without its `you` part when there is no client). A request
    /// that does need one (`subscribe`, `unsubscribe`) gets `unknownRequest`. For the HTTP side's
    /// JSON endpoints (`GET /devices`, …), which answer with exactly the reply a socket client gets.
    public func answer(line: Substring) -> String {
        switch ClientRequest.parse(line) {
        case .failure(let error): return error.json
        case .success(let request): return answer(request, client: nil)
        }
    }

    private func answer(_ request: ClientRequest, client: ClientConnection?) -> String {
        var reply = JSONWriter()
        reply.field("type", "reply")
        reply.raw("id", request.id)
        switch request.command {
        case .subscribe, .unsubscribe:
            return ProtocolError(.unknownRequest, "subscribe and unsubscribe need a stream connection", id: request.id).json
        case .devices:
            reply.field("request", "devices")
            reply.raw("devices", "[" + hub.deviceInfos.map(DeviceJSON.object).joined(separator: ",") + "]")
        case .live(let devices):
            reply.field("request", "live")
            reply.field("seq", hub.seq)
            reply.raw("strokes", strokesJSON(hub.tracker.live, devices: devices))
        case .history(let limit, let devices, let cursor):
            reply.field("request", "history")
            guard historyPage(limit: limit, devices: devices, cursor: cursor, into: &reply) else {
                return ProtocolError(.badArgument, "'cursor' is not one this daemon gave", id: request.id).json
            }
        case .ping:
            reply.field("request", "ping")
        case .stats:
            reply.field("request", "stats")
            writeStats(for: client, into: &reply)
        }
        return reply.finish()
    }

    private func subscribe(_ client: ClientConnection, _ sub: ClientRequest.Subscription, reply: inout JSONWriter) {
        client.subscription = sub
        updateGestureSubscribers()
        client.queue.sealMerges()
        var resumed: [Broadcast]?
        if let after = sub.resumeAfter { resumed = hub.resume(after: after) }
        reply.field("seq", hub.seq)
        if sub.resumeAfter != nil {
            reply.field("resumed", resumed != nil)
            if resumed == nil { reply.field("reason", "gapTooOld") }
        }
        // What does not fit in the client's queue is never dropped: the client is disconnected.
        var ok = client.enqueue(.line(reply.finish()))
        if let resumed {
            // Every one is sent as it was (never merged): `resume` bounds how many there are.
            for m in resumed where ok && client.wants(m) { ok = client.enqueue(m, mergeable: false) }
        } else if ok {
            var w = JSONWriter()
            w.field("type", "snapshot")
            w.field("seq", hub.seq)
            w.raw("strokes", strokesJSON(hub.tracker.live, devices: sub.devices))
            ok = client.enqueue(.line(w.finish()))
        }
        guard ok else {
            disconnectSlow(client, why: "its subscription does not fit in its queue")
            return
        }
        client.pump()
        enforceTotalQueuedBytes()
    }

    func send(_ line: String, to client: ClientConnection) {
        if client.enqueue(.line(line)) {
            client.pump()
            enforceTotalQueuedBytes()
        } else {
            disconnectSlow(client, why: "its queue is full")
        }
    }

    /// One page of a `history` selection (docs/protocol.md, "History pages"): the strokes of the
    /// selection, oldest first, that fit in `historyPageBytes` (at least one), and a `cursor`
    /// when more remain. A selection is fixed by its first request: strokes completed later are
    /// not part of it. False when the cursor cannot be one this daemon gave.
    func historyPage(limit: Int?, devices: Set<UInt32>?, cursor: ClientRequest.HistoryCursor?, into reply: inout JSONWriter) -> Bool {
        let kept = hub.tracker.completed
        let total = hub.tracker.completed.appended  // history cursors count completions
        let first = total - UInt64(kept.count)
        func wanted(_ s: CompletedStroke) -> Bool { devices.map { $0.contains(s.device.rawValue) } ?? true }
        var next: UInt64
        var end: UInt64
        if let cursor {
            guard cursor.end <= total else { return false }
            next = cursor.next
            end = cursor.end
        } else {
            end = total
            next = first
            if let limit {
                // The start of the most recent `limit` wanted strokes.
                var found = 0
                var i = kept.count
                while i > 0, found < limit {
                    i -= 1
                    if wanted(kept[i]) { found += 1 }
                }
                next = found < limit ? first : first + UInt64(i)
            }
        }
        if next < first {
            // Strokes of the selection that left the history between pages.
            reply.field("missed", Int(min(first, end) - next))
            next = first
        }
        // A page is also kept within the strokes' budget (half a client's byte limit), as one
        // stroke is: a page of several full-size strokes did not fit an empty queue, and every
        // `history` request of such a client ended in `goodbye`.
        let pageBytes = min(settings.historyPageBytes, strokesBudget)
        var out = "["
        var written = 0
        while next < end {
            let s = kept[Int(next - first)]
            if wanted(s), let geometry = hub.tracker.geometry(of: s.device) {
                let json = Stroke.jsonObjects([(s.stroke, geometry)], budget: strokesBudget)[0]
                if written > 0 && out.utf8.count + json.utf8.count + 1 > pageBytes { break }
                if written > 0 { out.append(",") }
                out.append(json)
                written += 1
            }
            next += 1
        }
        reply.raw("strokes", out + "]")
        if next < end { reply.field("cursor", ClientRequest.HistoryCursor(next: next, end: end).description) }
        return true
    }

    func strokesJSON(_ strokes: [Stroke], devices: Set<UInt32>?) -> String {
        var included: [(stroke: Stroke, geometry: DeviceGeometry)] = []
        for s in strokes {
            if let devices, !devices.contains(s.device.rawValue) { continue }
            guard let geometry = hub.tracker.geometry(of: s.device) else { continue }
            included.append((s, geometry))
        }
        return Stroke.jsonArray(included, budget: strokesBudget)
    }

    /// What the strokes of one snapshot, `live` reply or history stroke may take: half a client's
    /// byte limit, so that it fits with room to spare (docs/protocol.md, "Stroke objects").
    var strokesBudget: Int { settings.queue.disconnectAfterBytes / 2 }

    private func writeStats(for client: ClientConnection?, into w: inout JSONWriter) {
        var d = JSONWriter()
        d.field("seq", hub.seq)
        d.field("frames", hub.framesProcessed)
        d.field("devices", hub.deviceInfos.count)
        d.field("clients", clients.count)
        d.field("liveStrokes", hub.tracker.inProgressCount)
        d.field("completedStrokes", hub.tracker.completed.count)
        d.field("touchJumps", hub.tracker.jumps)
        d.field("slowClientsDisconnected", disconnectedSlow)
        d.field("clientsRefused", refusedClients)
        d.field("queuedBytes", queuedBytes)
        w.raw("daemon", d.finish())
        w.raw("devices", diagnosticsJSON())
        guard let client else { return }
        var c = JSONWriter()
        c.field("client", client.id)
        c.field("sent", client.sent)
        c.field("queued", client.queue.count)
        c.field("queuedBytes", client.currentHeldBytes())
        c.field("merged", client.queue.mergedTotal)
        c.field("subscribed", client.subscription != nil)
        c.field("paced", client.pacing.waits)
        w.raw("you", c.finish())
    }
}
