import StrokeProtocol

/// One subscription's position in the daemon's stream, across connections: what to put in each
/// `subscribe` (`resumeAfter`), and which messages to deliver so that none is delivered twice and
/// what cannot be resumed is announced by a `Gap`. Pure: the client feeds it greetings, replies
/// and messages.
public struct StreamState: Sendable {
    public var devices: [UInt32]?
    public var events: [Request.StreamType]?
    /// The daemon instance `lastSeq` belongs to.
    public private(set) var instance: String?
    /// The last sequence number delivered (or the snapshot's): where a resume starts.
    public private(set) var lastSeq: UInt64?
    /// Sequence numbers neither received nor counted in a `merged` so far. Without filters it is
    /// 0 whenever no merged move is pending (docs/protocol.md, "Sequence numbers").
    public private(set) var unaccounted: Int64 = 0

    /// `resumeAfter`: start after that sequence number of the first daemon that answers (0:
    /// everything it still holds) instead of with a snapshot.
    public init(devices: [UInt32]? = nil, events: [Request.StreamType]? = nil, resumeAfter: UInt64? = nil) {
        self.devices = devices
        self.events = events
        self.lastSeq = resumeAfter
    }

    /// The `subscribe` to send after `hello`, and the gap to deliver first when the daemon is a
    /// new instance.
    public mutating func subscribe(after hello: Hello) -> (Request.Command, Gap?) {
        var gap: Gap?
        if let instance, instance != hello.instance {
            gap = Gap(reason: .restarted, lastSeq: lastSeq, instance: instance)
            lastSeq = nil
        }
        instance = hello.instance
        return (.subscribe(devices: devices, events: events, resumeAfter: lastSeq), gap)
    }

    /// The gap to deliver when the daemon could not resume (a snapshot follows).
    public func replied(_ result: Reply.SubscribeResult) -> Gap? {
        guard result.resumed == false else { return nil }
        return Gap(reason: Gap.Reason(rawValue: result.reason ?? "gapTooOld"), lastSeq: lastSeq, instance: instance)
    }

    /// Whether to deliver `message` (true, or it throws). A stream message whose sequence number
    /// is not above the last one delivered is not the protocol (`protocolError`): the daemon's
    /// numbers only increase (a merged `moved` carries the newest), and a resume starts after the
    /// last one delivered. Dropped silently, such a message left a stroke without its end.
    public mutating func accept(_ message: ServerMessage) throws(StrokeClientError) -> Bool {
        if case .snapshot(let snapshot) = message {
            lastSeq = snapshot.seq
            unaccounted = 0
            return true
        }
        guard let seq = message.seq else { return true }
        if let last = lastSeq {
            guard seq > last else {
                throw StrokeClientError(.protocolError, "a '\(message.type)' with seq \(seq) after seq \(last): sequence numbers only increase")
            }
            var merged = 0
            if case .stroke(let e) = message { merged = e.merged ?? 0 }
            // Saturating: a daemon's numbers stay far from the limits, a hostile peer's need not,
            // and a count is no reason to trap.
            unaccounted = StreamState.saturating(unaccounted, plus: Int64(clamping: seq - last - 1), minus: Int64(clamping: merged))
        }
        lastSeq = seq
        return true
    }

    /// `a + b - c`, clamped to `Int64`'s range at each step.
    static func saturating(_ a: Int64, plus b: Int64, minus c: Int64) -> Int64 {
        let (sum, over) = a.addingReportingOverflow(b)
        let x = over ? (b > 0 ? Int64.max : .min) : sum
        let (difference, under) = x.subtractingReportingOverflow(c)
        return under ? (c > 0 ? .min : .max) : difference
    }
}
