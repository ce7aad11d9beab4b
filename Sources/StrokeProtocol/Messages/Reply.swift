/// A `reply`: a request succeeded (docs/protocol.md, "Requests"). `{"type":"reply","id":…,"request":"<name>",…}`.
public struct Reply: Codable, Sendable, Hashable {
    /// The request's id; nil when it had none (`null` on the wire).
    public var id: RequestID?
    public var result: Result

    public init(id: RequestID?, result: Result) {
        self.id = id
        self.result = result
    }

    /// What the reply carries, by request.
    public enum Result: Sendable, Hashable {
        case subscribe(SubscribeResult)
        /// The last sequence number before the subscription ended.
        case unsubscribe(seq: UInt64)
        case devices([DeviceObject])
        /// The strokes in progress at `seq`, with their points so far.
        case live(seq: UInt64, strokes: [StrokeObject])
        case history(HistoryPage)
        case ping
        case stats(Stats)
        /// A reply to a request this client does not know: its name and the whole object.
        case unknown(request: String, raw: JSONValue)

        /// The `request` the reply answers.
        public var request: String {
            switch self {
            case .subscribe: "subscribe"
            case .unsubscribe: "unsubscribe"
            case .devices: "devices"
            case .live: "live"
            case .history: "history"
            case .ping: "ping"
            case .stats: "stats"
            case .unknown(let name, _): name
            }
        }
    }

    /// The `subscribe` reply.
    public struct SubscribeResult: Codable, Sendable, Hashable {
        /// The last sequence number before the stream continues.
        public var seq: UInt64
        /// With `resumeAfter`: whether every message after it follows (else a snapshot does).
        public var resumed: Bool?
        /// When not resumed: why (`gapTooOld`).
        public var reason: String?

        public init(seq: UInt64, resumed: Bool? = nil, reason: String? = nil) {
            self.seq = seq
            self.resumed = resumed
            self.reason = reason
        }
    }

    /// One page of a `history` selection (docs/protocol.md, "History pages").
    public struct HistoryPage: Codable, Sendable, Hashable {
        /// Completed strokes, oldest first.
        public var strokes: [StrokeObject]
        /// Present when more remain: send it back in the next `history` request.
        public var cursor: String?
        /// Strokes of the selection that left the daemon's history since the previous page.
        public var missed: Int?

        public init(strokes: [StrokeObject], cursor: String? = nil, missed: Int? = nil) {
            self.strokes = strokes
            self.cursor = cursor
            self.missed = missed
        }
    }

    /// The `stats` reply.
    public struct Stats: Codable, Sendable, Hashable {
        public var daemon: Daemon
        public var you: Client
        /// Per device, the decoder's non-zero diagnostic counters (docs/decoder.md, "Diagnostics").
        public var devices: [DeviceDiagnostics]?

        public init(daemon: Daemon, you: Client, devices: [DeviceDiagnostics]? = nil) {
            self.daemon = daemon
            self.you = you
            self.devices = devices
        }

        /// One device's counters: names as in `strokes replay --summary`, only the non-zero ones.
        public struct DeviceDiagnostics: Codable, Sendable, Hashable {
            public var device: UInt32
            public var diagnostics: [String: Int]

            public init(device: UInt32, diagnostics: [String: Int]) {
                self.device = device
                self.diagnostics = diagnostics
            }
        }

        /// The daemon's counters.
        public struct Daemon: Codable, Sendable, Hashable {
            public var seq: UInt64
            public var frames: UInt64
            public var devices: Int
            public var clients: Int
            public var liveStrokes: Int
            public var completedStrokes: Int
            /// Strokes split at a touch jump (docs/decoder.md).
            public var touchJumps: UInt64
            public var slowClientsDisconnected: UInt64
            public var clientsRefused: UInt64
            public var queuedBytes: Int

            public init(
                seq: UInt64, frames: UInt64, devices: Int, clients: Int, liveStrokes: Int, completedStrokes: Int,
                touchJumps: UInt64, slowClientsDisconnected: UInt64, clientsRefused: UInt64, queuedBytes: Int
            ) {
                self.seq = seq
                self.frames = frames
                self.devices = devices
                self.clients = clients
                self.liveStrokes = liveStrokes
                self.completedStrokes = completedStrokes
                self.touchJumps = touchJumps
                self.slowClientsDisconnected = slowClientsDisconnected
                self.clientsRefused = clientsRefused
                self.queuedBytes = queuedBytes
            }
        }

        /// The asking client's counters.
        public struct Client: Codable, Sendable, Hashable {
            public var client: UInt64
            public var sent: UInt64
            public var queued: Int
            public var queuedBytes: Int
            /// Moves merged away for this client (docs/protocol.md, "Slow clients").
            public var merged: UInt64
            public var subscribed: Bool
            /// Times this client's requests waited for their pace (docs/protocol.md, "Limits");
            /// nil from a daemon that does not pace them.
            public var paced: UInt64?

            public init(
                client: UInt64, sent: UInt64, queued: Int, queuedBytes: Int, merged: UInt64, subscribed: Bool,
                paced: UInt64? = nil
            ) {
                self.client = client
                self.sent = sent
                self.queued = queued
                self.queuedBytes = queuedBytes
                self.merged = merged
                self.subscribed = subscribed
                self.paced = paced
            }
        }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: MessageKey.self)
        id = try c.decodeIfPresent(RequestID.self, forKey: "id")
        let request = try c.decode(String.self, forKey: "request")
        switch request {
        case "subscribe": result = .subscribe(try SubscribeResult(from: decoder))
        case "unsubscribe": result = .unsubscribe(seq: try c.decode(UInt64.self, forKey: "seq"))
        case "devices": result = .devices(try c.decode([DeviceObject].self, forKey: "devices"))
        case "live":
            let seq = try c.decode(UInt64.self, forKey: "seq")
            result = .live(seq: seq, strokes: try c.decode([StrokeObject].self, forKey: "strokes"))
        case "history": result = .history(try HistoryPage(from: decoder))
        case "ping": result = .ping
        case "stats": result = .stats(try Stats(from: decoder))
        default: result = .unknown(request: request, raw: try JSONValue(from: decoder))
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .unknown(_, let raw) = result {
            try raw.encode(to: encoder)
            return
        }
        var c = encoder.container(keyedBy: MessageKey.self)
        try c.encode("reply", forKey: .type)
        try c.encodeNullable(id, forKey: "id")
        try c.encode(result.request, forKey: "request")
        switch result {
        case .subscribe(let r): try r.encode(to: encoder)
        case .unsubscribe(let seq): try c.encode(seq, forKey: "seq")
        case .devices(let devices): try c.encode(devices, forKey: "devices")
        case .live(let seq, let strokes):
            try c.encode(seq, forKey: "seq")
            try c.encode(strokes, forKey: "strokes")
        case .history(let page): try page.encode(to: encoder)
        case .ping: break
        case .stats(let stats): try stats.encode(to: encoder)
        case .unknown: break  // written whole above
        }
    }
}
